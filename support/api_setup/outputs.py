"""The agent's output variables, set through the console API as another client would; and how a
scenario's tables write them (one row an output, an object's fields as dotted paths after it)."""

from __future__ import annotations

from support.api.models import AgentDetail, OutputVariable
from support.api_setup.agents import change_draft
from support.world import World

# The columns of an outputs table.
OUTPUT_COLUMNS = ("output", "type", "items", "description")


def outputs_from_table(rows: list[dict[str, str]]) -> list[OutputVariable]:
    """Outputs from a scenario's table: each row's dotted path puts it under its object, in the
    table's order; `items` is `-` for anything but an array."""
    top: list[OutputVariable] = []
    by_path: dict[str, OutputVariable] = {}
    for row in rows:
        parent, _, name = row["output"].rpartition(".")
        output = OutputVariable(
            name=name,
            type=row["type"],  # type: ignore[arg-type]  # validated: the model refuses an unknown type
            items="string" if row.get("items", "-") == "-" else row["items"],  # type: ignore[arg-type]
            description=row.get("description", ""),
        )
        (by_path[parent].fields if parent else top).append(output)
        by_path[row["output"]] = output
    return top


def outputs_as_read(agent: AgentDetail) -> list[dict[str, str]]:
    """The draft's outputs as a scenario's table writes them, parents first."""
    rows: list[dict[str, str]] = []

    def read(outputs: list[OutputVariable], parent: str) -> None:
        for output in outputs:
            path = f"{parent}.{output.name}" if parent else output.name
            items = output.items if output.type == "array" else "-"
            rows.append(
                {"output": path, "type": output.type, "items": items, "description": output.description}
            )
            read(output.fields, path)

    read(agent.draft.config.outputs, "")
    return rows


def declare_outputs(world: World, rows: list[dict[str, str]], instructions: str | None = None) -> AgentDetail:
    """Save the draft with these outputs (and these instructions, when given)."""
    changes: dict[str, object] = {"outputs": outputs_from_table(rows)}
    if instructions is not None:
        changes["instructions"] = instructions
    return change_draft(world, **changes)
