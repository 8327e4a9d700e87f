"""Console endpoints that only the agent runtime calls, authorized by a run's short-lived
knowledge token rather than a user's session. Not part of /openapi.json."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from agent_builder.console.chat_runs.runs import ChatRuns
from agent_builder.console.chat_runs.runtime_client import KNOWLEDGE_RETRIEVE_PATH
from agent_builder.console.errors import ApiError
from agent_builder.console.routes.common import DbDep
from agent_builder.console.schemas.knowledge import InternalRetrieveRequest, RetrieveResponse
from agent_builder.console.services import knowledge

router = APIRouter(include_in_schema=False)
_bearer = HTTPBearer(auto_error=False)


def _granted_datasets(
    request: Request, credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]
) -> frozenset[str]:
    runs: ChatRuns = request.app.state.chat_runs
    datasets = runs.knowledge_datasets(credentials.credentials) if credentials else None
    if datasets is None:
        raise ApiError(401, "invalid_token", "Missing or unknown knowledge token, or its run has ended.")
    return datasets


@router.post(KNOWLEDGE_RETRIEVE_PATH)
def retrieve_for_run(
    body: InternalRetrieveRequest, granted: Annotated[frozenset[str], Depends(_granted_datasets)], db: DbDep
) -> RetrieveResponse:
    """The runtime's knowledge_search: keyword retrieval over the run's agent's datasets only."""
    foreign = sorted(set(body.dataset_ids) - granted)
    if foreign:
        raise ApiError(403, "forbidden", f"The token does not cover dataset(s) {', '.join(foreign)}.")
    records = knowledge.search(db, body.dataset_ids, body.query, body.top_k, body.score_threshold)
    return RetrieveResponse(records=records)
