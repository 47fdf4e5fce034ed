// The state store: one object holding what the page knows of the game, changed only by
// dispatching an action through a reducer (see game.js), and listeners told of every change.
//
//   const store = createStore(reduce, initialState());
//   store.subscribe((state, action) => draw(state));
//   store.dispatch({ type: "update", message });
//
// The state is never changed in place by anyone else: a listener reads it, and asks for a
// change by dispatching.

export function createStore(reduce, initial) {
  let state = initial;
  const listeners = new Set();
  return {
    get: () => state,
    dispatch(action) {
      state = reduce(state, action);
      for (const listener of [...listeners]) listener(state, action);
      return state;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
