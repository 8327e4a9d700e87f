"""Sign in and sign out."""

from behave import given, step, then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api.console import session_of, status_of
from support.step_helpers import data_table, need
from support.ui.nav_bar import NavBar
from support.ui.other_port_site import OtherPortSite
from support.ui.roster import RosterPage
from support.ui.sign_in import SignInPage
from support.world import World


@given("I am signed out")
def step_signed_out(context: Context) -> None:
    """Drop the session cookies of the scenario's browser context."""
    world: World = context.world
    world.browser_context.clear_cookies()


def _sign_in(world: World, email: str, password: str) -> None:
    if SignInPage.PATH not in world.page.url:
        world.open(SignInPage.PATH)
    SignInPage(world.page).sign_in(email, password)


@when("I open a sign-in link that sends me on to {string}")
def step_open_sign_in_link(context: Context, target: str) -> None:
    """Open the sign-in page with `next` set to the target, written into the query as is."""
    # "%09" is a tab once the page reads it.
    context.world.open(f"{SignInPage.PATH}?next={target}")


@when("I sign in with the admin credentials")
def step_sign_in(context: Context) -> None:
    """Sign in on the sign-in page with E2E_ADMIN_EMAIL and E2E_ADMIN_PASSWORD."""
    world: World = context.world
    _sign_in(world, world.settings.admin_email, world.settings.admin_password.get_secret_value())


@when("I sign in with the admin email and the password {string}")
def step_sign_in_with_password(context: Context, password: str) -> None:
    """Sign in with the admin email and another password."""
    world: World = context.world
    _sign_in(world, world.settings.admin_email, password)


@when("I sign out")
def step_sign_out(context: Context) -> None:
    """Sign out from the navigation bar (remembering the session it ends, for later checks)."""
    world: World = context.world
    nav_bar = NavBar(world.page)
    expect(nav_bar.sign_out_button).to_be_enabled()  # a signed-in page: the session cookie is set
    session = session_of(world.browser_context.cookies())
    assert session, "the browser holds no console session to sign out of"
    world.secrets.add(session)
    world.agent_builder.auth.signed_out_session = session
    nav_bar.sign_out()


@step("the console holds the next sign-out")
def step_hold_sign_out(context: Context) -> None:
    """Hold the page's sign-out request open ("the held sign-out"), to look at the page meanwhile."""
    world: World = context.world
    world.held["sign-out"] = NavBar(world.page).hold_next_sign_out(world.settings.timeout_ms)


@then("Sign out cannot be pressed again while it runs")
def step_sign_out_disabled(context: Context) -> None:
    """The Sign out button is disabled: a second click cannot start a second sign-out."""
    expect(NavBar(context.world.page).sign_out_button).to_be_disabled()


@then("Sign out can be pressed again")
def step_sign_out_enabled_again(context: Context) -> None:
    """The Sign out button works again: the page refused to leave and the user is still signed in."""
    expect(NavBar(context.world.page).sign_out_button).to_be_enabled()


@then("I see the sign-in page")
def step_see_sign_in(context: Context) -> None:
    """The sign-in page is shown."""
    world: World = context.world
    expect(SignInPage(world.page).heading).to_be_visible()


@then("I see the sign-in error {string}")
def step_sign_in_error(context: Context, message: str) -> None:
    """The sign-in page shows the error."""
    world: World = context.world
    expect(SignInPage(world.page).error).to_have_text(message)


@then("opening the agent roster sends me to the sign-in page")
def step_roster_needs_sign_in(context: Context) -> None:
    """A signed-out visit to the roster lands on the sign-in page."""
    world: World = context.world
    world.open(RosterPage.PATH)
    expect(world.page).to_have_url(SignInPage.REDIRECT_URL)
    expect(SignInPage(world.page).heading).to_be_visible()
    expect(RosterPage(world.page).heading).to_have_count(0)


@then("the navigation shows the admin email")
def step_nav_shows_email(context: Context) -> None:
    """The navigation bar shows the signed-in admin's email."""
    world: World = context.world
    expect(NavBar(world.page).root).to_contain_text(world.settings.admin_email)


@then("the session I signed out of is refused by the console API")
def step_old_session_refused(context: Context) -> None:
    """The session token from before signing out no longer opens the console API (401)."""
    world: World = context.world
    session = need(world.agent_builder.auth.signed_out_session, "this scenario did not sign out of a session")
    status = status_of(world.console_url, "GET", "/console/api/me", token=session)
    assert status == 401, f"the console API answered {status} to the session the user signed out of"


@then("the console API refuses these requests without a session:")
def step_api_refuses_without_session(context: Context) -> None:
    """Each request of the table, sent with no session, is answered 401 ({agent}: the agent's id)."""
    world: World = context.world
    agent = world.agent_builder.configure.agent
    refused = {
        f"{row['method']} {row['path']}": status_of(
            world.console_url, row["method"], row["path"].replace("{agent}", agent.id if agent else "none")
        )
        for row in data_table(context)
    }
    answered = {request: status for request, status in refused.items() if status != 401}
    assert not answered, f"answered without a session: {answered}"


_FORGED_BUTTON = "Claim your prize"


@when("a page on another port of the console's host posts a sign-out form to the console")
def step_cross_port_sign_out(context: Context) -> None:
    """Open a page at the console's host on another port and press its button, a form posting to sign-out."""
    world: World = context.world
    site = OtherPortSite(world.page, world.console_url)
    site.open_with_form("/console/api/logout", _FORGED_BUTTON)
    site.press(_FORGED_BUTTON)


@then("the console refuses it as a request from another origin")
def step_cross_origin_refused(context: Context) -> None:
    """The browser shows the console's refusal, which names the other port's origin."""
    world: World = context.world
    expect(OtherPortSite(world.page, world.console_url).refusal).to_be_visible()
