"""Write the protocol's JSON Schema and the generated tables of docs/protocol.md from the
declarations in huntgather.server.messages.

    python tools/protocol_docs.py           # write docs/protocol.schema.json and docs/protocol.md
    python tools/protocol_docs.py --check   # exit 1, saying which, if either file is stale

tests/test_protocol_declarations.py fails while either is stale.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from huntgather.server.protocol_docs import render_docs, schema_text

DOCS = Path(__file__).resolve().parent.parent / "docs"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say whether the files are up to date")
    args = parser.parse_args()
    md, schema = DOCS / "protocol.md", DOCS / "protocol.schema.json"
    wanted = {md: render_docs(md.read_text(encoding="utf-8")), schema: schema_text()}
    stale = [path for path, text in wanted.items()
             if not path.exists() or path.read_text(encoding="utf-8") != text]
    if args.check:
        for path in stale:
            print(f"{path.relative_to(DOCS.parent)} is stale: run python tools/protocol_docs.py")
        return 1 if stale else 0
    for path in stale:
        path.write_text(wanted[path], encoding="utf-8")
        print(f"wrote {path.relative_to(DOCS.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
