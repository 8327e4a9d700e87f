"""The impact map: which scenarios and tests execute each product line (`make impact-map`)."""
