"""The kit's parameter-types sample: a parameter type of our own, {flight}, with two groups."""

from dataclasses import dataclass

from behave import step
from behave.cucumber_expression import define_parameter_type_with, use_step_matcher_for_cucumber_expressions
from behave.runner import Context

use_step_matcher_for_cucumber_expressions()


@dataclass(frozen=True)
class Flight:
    origin: str
    destination: str


def to_flight(origin: str, destination: str) -> Flight:
    return Flight(origin, destination)


define_parameter_type_with("flight", r"([A-Z]{3})-([A-Z]{3})", Flight, to_flight)


@step("{flight} has been delayed")
def delayed(context: Context, flight: Flight) -> None:
    assert flight == Flight("LHR", "CDG")
