// Placeholder: the counter example is being written.
