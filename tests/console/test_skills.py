"""Skills: uploaded as a zip or as files, SKILL.md's front matter checked (the reason said), sizes,
types and counts bounded, listed, replaced and removed, and carried by the draft: published,
restored and duplicated with it, never made up by a draft save."""

from __future__ import annotations

import io
import zipfile
from typing import Any

import pytest
from api_shortcuts import create_agent
from fastapi.testclient import TestClient

SKILL_MD = b"---\nname: pdf-forms\ndescription: Fills PDF forms. Use for any form.\n---\n# PDF forms\n"


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path, data in files.items():
            archive.writestr(path, data)
    return buffer.getvalue()


def _post(client: TestClient, agent: dict[str, Any], files: dict[str, bytes], name: str = "") -> Any:
    parts = [("files", (path, data)) for path, data in files.items()]
    url = f"/console/api/agents/{agent['id']}/skills" + (f"/{name}" if name else "")
    return (client.put if name else client.post)(url, files=parts)


def test_a_zipped_folder_becomes_a_skill_of_the_draft(client: TestClient) -> None:
    agent = create_agent(client)
    upload = {
        "pdf-forms.zip": _zip({"pdf-forms/SKILL.md": SKILL_MD, "pdf-forms/ref/fields.txt": b"Name, Date"})
    }
    response = _post(client, agent, upload)
    assert response.status_code == 201, response.text
    skill = response.json()["config"]["skills"][0]
    assert {key: skill[key] for key in ("name", "description", "files")} == {
        "name": "pdf-forms",
        "description": "Fills PDF forms. Use for any form.",
        "files": [{"path": "SKILL.md", "size": len(SKILL_MD)}, {"path": "ref/fields.txt", "size": 10}],
    }
    listed = client.get(f"/console/api/agents/{agent['id']}/skills").json()
    assert listed["data"] == [skill]
    assert listed["limits"]["max_skills"] == 10


@pytest.mark.parametrize(
    ("skill_md", "message"),
    [
        (b"# no front matter", "SKILL.md must start with front matter"),
        (b"---\nname: a\n", "SKILL.md's front matter has no closing --- line."),
        (b"---\ndescription: d\n---\n", "SKILL.md's front matter has no name."),
        (b"---\nname: a\n---\n", "SKILL.md's front matter has no description."),
        (b"---\nname: PDF Forms\ndescription: d\n---\n", "must be 1 to 64 lowercase letters"),
    ],
)
def test_a_malformed_skill_md_is_refused_saying_why(
    client: TestClient, skill_md: bytes, message: str
) -> None:
    agent = create_agent(client)
    response = _post(client, agent, {"SKILL.md": skill_md})
    assert response.status_code == 400, response.text
    assert response.json()["code"] == "invalid_skill"
    assert message in response.json()["message"]
    assert client.get(f"/console/api/agents/{agent['id']}").json()["draft"]["config"]["skills"] == []


def test_types_sizes_counts_and_names_are_bounded(client: TestClient) -> None:
    agent = create_agent(client)
    assert _post(client, agent, {"SKILL.md": SKILL_MD, "run.exe": b"MZ"}).status_code == 415
    assert _post(client, agent, {"SKILL.md": SKILL_MD, "big.txt": b"x" * (1 << 20)}).status_code == 413
    many = {"SKILL.md": SKILL_MD, **{f"f{n}.txt": b"x" for n in range(50)}}
    assert _post(client, agent, many).json()["code"] == "too_many_files"
    assert _post(client, agent, {"../SKILL.md": SKILL_MD}).json()["code"] == "invalid_skill"
    assert _post(client, agent, {"SKILL.md": SKILL_MD}).status_code == 201
    again = _post(client, agent, {"SKILL.md": SKILL_MD})
    assert (again.status_code, again.json()["code"]) == (409, "skill_exists")
    for number in range(9):
        md = SKILL_MD.replace(b"pdf-forms", f"skill-{number}".encode())
        assert _post(client, agent, {"SKILL.md": md}).status_code == 201
    last = _post(client, agent, {"SKILL.md": SKILL_MD.replace(b"pdf-forms", b"one-too-many")})
    assert (last.status_code, last.json()["code"]) == (409, "skill_limit_reached")


def test_replace_keeps_the_place_and_the_name_remove_drops_it(client: TestClient) -> None:
    agent = create_agent(client)
    _post(client, agent, {"SKILL.md": SKILL_MD})
    _post(client, agent, {"SKILL.md": SKILL_MD.replace(b"pdf-forms", b"second")})
    newer = SKILL_MD.replace(b"Fills PDF forms.", b"Fills and signs PDF forms.")
    replaced = _post(client, agent, {"SKILL.md": newer}, name="pdf-forms")
    assert replaced.status_code == 200, replaced.text
    skills = replaced.json()["config"]["skills"]
    assert [(s["name"], s["description"]) for s in skills] == [
        ("pdf-forms", "Fills and signs PDF forms. Use for any form."),
        ("second", "Fills PDF forms. Use for any form."),
    ]
    renamed = _post(client, agent, {"SKILL.md": SKILL_MD.replace(b"pdf-forms", b"other")}, name="pdf-forms")
    assert renamed.json()["code"] == "invalid_skill"
    assert _post(client, agent, {"SKILL.md": SKILL_MD}, name="missing").status_code == 404
    removed = client.delete(f"/console/api/agents/{agent['id']}/skills/pdf-forms")
    assert [s["name"] for s in removed.json()["config"]["skills"]] == ["second"]
    assert client.delete(f"/console/api/agents/{agent['id']}/skills/pdf-forms").status_code == 404


def test_a_draft_save_cannot_make_up_a_skill(client: TestClient) -> None:
    agent = create_agent(client)
    draft = _post(client, agent, {"SKILL.md": SKILL_MD}).json()
    config = draft["config"]
    resaved = client.put(
        f"/console/api/agents/{agent['id']}/draft", json={"revision": draft["revision"], "config": config}
    )
    assert resaved.status_code == 200, resaved.text
    config["skills"][0]["description"] = "Something else."
    forged = client.put(
        f"/console/api/agents/{agent['id']}/draft",
        json={"revision": resaved.json()["revision"], "config": config},
    )
    assert (forged.status_code, forged.json()["code"]) == (400, "invalid_skill")


def test_skills_are_published_restored_and_duplicated_with_the_draft(
    client: TestClient, published_agent: dict[str, Any]
) -> None:
    base = f"/console/api/agents/{published_agent['id']}"
    skill = _post(client, published_agent, {"SKILL.md": SKILL_MD}).json()["config"]["skills"][0]
    assert client.post(f"{base}/publish").status_code == 200
    assert client.get(base).json()["published"]["config"]["skills"] == [skill]
    removed = client.delete(f"{base}/skills/pdf-forms").json()
    assert removed["config"]["skills"] == []
    assert client.get(base).json()["published"]["config"]["skills"] == [skill]  # versions keep theirs
    restored = client.post(f"{base}/versions/2/restore", json={"revision": removed["revision"]})
    assert restored.json()["config"]["skills"] == [skill]
    copy = client.post(f"{base}/duplicate", json={}).json()
    assert copy["draft"]["config"]["skills"] == [skill]


def test_an_unknown_agent_has_no_skills(client: TestClient) -> None:
    assert client.get("/console/api/agents/nope/skills").status_code == 404
    assert _post(client, {"id": "nope"}, {"SKILL.md": SKILL_MD}).status_code == 404
