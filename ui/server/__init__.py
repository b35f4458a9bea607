"""The server: caches, memory, process settings, warm-up and reconnected sessions."""
