"""Assembles the console: database, indexing worker, JSON API routers, UI pages and static files."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.routing import APIRoute
from pydantic.json_schema import models_json_schema

from agent_builder.console import contract, crypto, security
from agent_builder.console.auth import ensure_admin
from agent_builder.console.body_limit import BodyLimitMiddleware
from agent_builder.console.chat_runs.runs import ChatRuns
from agent_builder.console.config import ConsoleConfig
from agent_builder.console.db import Database
from agent_builder.console.errors import install_error_handlers
from agent_builder.console.indexing import IndexingWorker
from agent_builder.console.routes import (
    agent_files,
    agents,
    api_keys,
    auth,
    build_assistant,
    chat,
    datasets,
    documents,
    duplicate,
    env_vars,
    internal,
    meta,
    model_providers,
    preview,
    skills,
    speech_to_text,
    system_models,
    test_seed,
    tools,
    versions,
)
from agent_builder.console.schemas.skills import MAX_SKILL_BYTES
from agent_builder.console.services.agent_files import CONTENT_TYPES as AGENT_FILE_TYPES
from agent_builder.console.services.knowledge import DOCUMENT_EXTENSIONS
from agent_builder.console.services.speech_to_text import AUDIO_EXTENSIONS, TranscriptionSlots
from agent_builder.console.ui import pages
from agent_builder.console.ui.assets import AssetManifest, StaticAssets

UI_DIR = Path(__file__).parent / "ui"
# JSON bodies are small (the largest, a draft, is tens of KiB); uploads get their own limits.
MAX_JSON_BODY_BYTES = 1 << 20
# Room for the multipart boundaries and part headers around an uploaded file.
MULTIPART_OVERHEAD_BYTES = 64 << 10


def _operation_id(route: APIRoute) -> str:
    # Handler names are unique across the console, and make readable generated client methods.
    return route.name


def create_app(config: ConsoleConfig) -> FastAPI:
    db = Database(config.db_path)
    crypto.install(db, crypto.load_box(config))  # raises ConfigError when the key does not fit
    ensure_admin(db, config.admin_email, config.admin_password)
    indexer = IndexingWorker(db)
    chat_runs = ChatRuns(db, config)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        indexer.start()
        try:
            yield
        finally:
            await chat_runs.aclose()
            indexer.stop()
            db.close()

    app = FastAPI(
        title="agent_builder console",
        version="1.0.0",
        lifespan=lifespan,
        docs_url=None,  # Swagger UI would load scripts from a CDN; the UI has no third-party origins
        redoc_url=None,
        openapi_url="/openapi.json",
        generate_unique_id_function=_operation_id,
        separate_input_output_schemas=False,
        # `/x/` is a 404, never a redirect to `/x`: a redirect would let `%2e%2e%2f` in a path
        # become a real `..` once the client follows it (a DELETE on the parent resource).
        redirect_slashes=False,
    )
    app.state.config = config
    app.state.db = db
    app.state.indexer = indexer
    app.state.chat_runs = chat_runs
    app.state.transcription_slots = TranscriptionSlots()
    install_error_handlers(app)
    _add_stream_event_schemas(app)
    contract.install(app, _uploads(config))
    _add_routes(app, config)
    security.install(app, config)
    return app


def _add_routes(app: FastAPI, config: ConsoleConfig) -> None:
    """The JSON API routers, the UI pages and static files, and the body size limits."""
    # First: routes match in order, and a page loads a dozen scripts for each API call it makes.
    app.state.assets = AssetManifest(UI_DIR / "static")
    app.mount("/static", StaticAssets(app.state.assets), name="static")
    for router in (
        auth.router,
        model_providers.router,
        tools.router,
        datasets.router,
        agents.router,
        versions.router,
        duplicate.router,
        env_vars.router,
        api_keys.router,
        chat.web_app_router,
        chat.service_api_router,
        meta.router,
        documents.router,
        agent_files.router,
        skills.router,
        internal.router,
        system_models.router,
        preview.router,
        build_assistant.router,
        speech_to_text.console_router,
        speech_to_text.web_app_router,
    ):
        app.include_router(router)
    if config.enable_test_seed:
        app.include_router(test_seed.router)
    app.include_router(pages.router, include_in_schema=False)
    app.add_middleware(
        BodyLimitMiddleware,
        default_limit=MAX_JSON_BODY_BYTES,
        path_limits={
            documents.router.prefix: config.max_document_bytes + MULTIPART_OVERHEAD_BYTES,
            agent_files.router.prefix: config.max_agent_file_bytes + MULTIPART_OVERHEAD_BYTES,
            skills.router.prefix: MAX_SKILL_BYTES + MULTIPART_OVERHEAD_BYTES,
            skills.router.prefix + "/{skill_name}": MAX_SKILL_BYTES + MULTIPART_OVERHEAD_BYTES,
            speech_to_text.CONSOLE_PATH: config.max_audio_bytes + MULTIPART_OVERHEAD_BYTES,
            speech_to_text.WEB_APP_PATH: config.max_audio_bytes + MULTIPART_OVERHEAD_BYTES,
        },
    )


def _uploads(config: ConsoleConfig) -> dict[str, contract.Upload]:
    """The upload operations' file rules, for /openapi.json."""
    return {
        "upload_document": contract.Upload(
            DOCUMENT_EXTENSIONS,
            config.max_document_bytes,
            "notes.md",
            "UTF-8 text that is not blank (else 400).",
        ),
        "upload_agent_file": contract.Upload(
            tuple(AGENT_FILE_TYPES), config.max_agent_file_bytes, "data.csv", "any content."
        ),
        **dict.fromkeys(
            ("transcribe_audio", "transcribe_web_app_audio"),
            contract.Upload(
                AUDIO_EXTENSIONS,
                config.max_audio_bytes,
                "recording.wav",
                "audio (an audio Content-Type on the part may name the format instead of the file name).",
            ),
        ),
    }


def _add_stream_event_schemas(app: FastAPI) -> None:
    """Event streams name their event schema by reference, but FastAPI only collects the schemas
    of JSON bodies: add those (and what they reference) to the components."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = generate()
            _, definitions = models_json_schema(
                [(model, "validation") for model in chat.STREAM_EVENT_MODELS],
                ref_template="#/components/schemas/{model}",
            )
            components = schema["components"]["schemas"]
            for name, definition in definitions["$defs"].items():
                components.setdefault(name, definition)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to extend /openapi.json
