// Placeholder: the comments example is being written.
