"""HTML pages of the console UI and the public web app.

Pages are thin server-rendered shells; each loads one script from /static that talks to the
JSON API. The server only decides who may see a page (signed in or not, web app available).
"""

from pathlib import Path
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from jinja2 import pass_context
from jinja2.runtime import Context

from agent_builder.console.auth import signed_in_email
from agent_builder.console.errors import ApiError
from agent_builder.console.public import load_web_app
from agent_builder.console.routes.common import OriginDep
from agent_builder.console.schemas.web_app_settings import COLORS, LANGUAGES
from agent_builder.console.security.redirects import safe_next
from agent_builder.console.services.system_models import speech_to_text_enabled
from agent_builder.console.ui.assets import AssetManifest
from agent_builder.console.visitors import visitor

router = APIRouter(include_in_schema=False)
templates = Jinja2Templates(directory=Path(__file__).parent / "templates")


@pass_context
def _asset_url(context: Context, name: str) -> str:
    """A static file's content-hashed URL (ui/assets.py), for the page being rendered."""
    manifest: AssetManifest = context["request"].app.state.assets
    return manifest.url(name)


templates.env.globals["asset_url"] = _asset_url


def _console_page(request: Request, template: str, section: str, **context: Any) -> Response:
    email = signed_in_email(request)
    if email is None:
        here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        return RedirectResponse(f"/login?next={quote(here, safe='')}", status_code=303)
    return templates.TemplateResponse(request, template, {"email": email, "section": section, **context})


@router.get("/")
def home() -> RedirectResponse:
    return RedirectResponse("/agents", status_code=303)


@router.get("/login", response_class=HTMLResponse)
def login(request: Request, next_path: Annotated[str | None, Query(alias="next")] = None) -> Response:
    if signed_in_email(request) is not None:
        return RedirectResponse(safe_next(next_path), status_code=303)
    return templates.TemplateResponse(request, "login.html", {"email": None})


@router.get("/agents", response_class=HTMLResponse)
def agents(request: Request) -> Response:
    return _console_page(request, "agents.html", "agents")


@router.get("/agents/{agent_id}")
def agent(agent_id: str) -> RedirectResponse:
    return RedirectResponse(f"/agents/{quote(agent_id)}/configure", status_code=303)


@router.get("/agents/{agent_id}/configure", response_class=HTMLResponse)
def agent_configure(request: Request, agent_id: str) -> Response:
    voice_input = speech_to_text_enabled(request.app.state.db)
    return _console_page(
        request, "agent_configure.html", "agents", agent_id=agent_id, tab="configure", voice_input=voice_input
    )


@router.get("/agents/{agent_id}/access", response_class=HTMLResponse)
def agent_access(request: Request, agent_id: str) -> Response:
    return _console_page(
        request,
        "agent_access.html",
        "agents",
        agent_id=agent_id,
        tab="access",
        languages=LANGUAGES,
        colors=COLORS,
    )


@router.get("/knowledge", response_class=HTMLResponse)
def knowledge(request: Request) -> Response:
    return _console_page(request, "knowledge.html", "knowledge")


@router.get("/knowledge/{dataset_id}", response_class=HTMLResponse)
def dataset(request: Request, dataset_id: str) -> Response:
    return _console_page(request, "dataset.html", "knowledge", dataset_id=dataset_id)


@router.get("/settings")
def settings() -> RedirectResponse:
    return RedirectResponse("/settings/model-providers", status_code=303)


@router.get("/settings/model-providers", response_class=HTMLResponse)
def model_providers(request: Request) -> Response:
    return _console_page(request, "model_providers.html", "settings", tab="model-providers")


@router.get("/settings/tools", response_class=HTMLResponse)
def tools(request: Request) -> Response:
    return _console_page(request, "tools.html", "settings", tab="tools")


@router.get("/docs/service-api", response_class=HTMLResponse)
def service_api_reference(request: Request, origin: OriginDep) -> Response:
    """The service API reference linked from the access page (public: it names no secret)."""
    return templates.TemplateResponse(request, "service_api_reference.html", {"base": f"{origin}/v1"})


# status -> (heading, explanation) for the public web app's error page.
_WEB_APP_ERRORS = {
    403: ("This web app is unavailable", "Its owner has turned it off."),
    404: ("Web app not found", "There is no published web app at this address."),
}


@router.get("/chat/{site_token}", response_class=HTMLResponse)
def web_app(request: Request, site_token: str) -> Response:
    try:
        app = load_web_app(request, site_token)
    except ApiError as err:
        heading, message = _WEB_APP_ERRORS.get(err.status_code, ("Something went wrong", err.message))
        return templates.TemplateResponse(
            request,
            "error.html",
            {"email": None, "heading": heading, "message": message, "status_code": err.status_code},
            status_code=err.status_code,
        )
    context = {"email": None, "app": app, "page_lang": app.language}
    response = templates.TemplateResponse(request, "chat.html", context)
    visitor(request).remember(request, response)  # the visitor's conversations are theirs alone
    return response
