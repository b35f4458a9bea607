"""The Long context page's views: its config controls and the scaled RoPE charts."""
