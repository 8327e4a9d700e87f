"""The kit's hooks-undefined sample: hooks run around a scenario whose step is undefined."""

from behave.runner import Context

from tests.cck.hooks import after, before


@before()
def before_hook(context: Context) -> None:
    pass


@after()
def after_hook(context: Context) -> None:
    pass
