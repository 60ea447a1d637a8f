"""States and what is read from them: saving and reading, observations, events, information sets, tensors, positions."""
