"""The app's state: URL parameters and their keys, the share link, presets."""
