"""Domain-free helpers of the HTTP edge: request limits, body handling, the served protocol."""
