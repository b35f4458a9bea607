"""The Training page's views: the shared queue, its controls, progress and results."""
