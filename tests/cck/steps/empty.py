"""The kit's empty sample: a scenario without steps, so no definitions."""
