"""Fakes of the services the product and the suite call over HTTP, served in the test process.

One fake per upstream, each scripted by the test and recording what it was sent. Fixtures that
start them live in tests/conftest.py. Fakes of the product's own services (a runtime, shellctl)
stay beside the one test module that needs them.
"""
