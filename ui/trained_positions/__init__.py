"""The Trained positions page's views: a trained position table beside random and sinusoidal ones."""
