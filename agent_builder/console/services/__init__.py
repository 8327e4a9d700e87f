"""Domain logic of the console, independent of HTTP: each module owns one resource's tables."""
