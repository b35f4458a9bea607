"""Why position?'s own pieces: the two sentences and how to read them."""
