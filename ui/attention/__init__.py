"""The Attention page's views: its settings and the heatmaps of scores and weights."""
