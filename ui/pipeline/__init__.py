"""The Pipeline page's views: the windows, the positional table, the broadcasting add, the vocabulary."""
