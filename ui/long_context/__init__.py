"""The Long context page's pieces: its config form (form), the form's session and URL state (url_state),
and its views (the controls, the story and the scaled RoPE charts)."""
