"""Skill archives: what an upload holds (a zip, or files with their paths), checked and stored.

An archive is a skill's files, stored once under the SHA-256 of their paths and contents: it never
changes, so every draft, version or copy that names it reads the same files."""

from __future__ import annotations

import hashlib
import io
import json
import re
import sqlite3
import stat
import zipfile
from pathlib import PurePosixPath

from agent_builder.console.db import Database, utc_now
from agent_builder.console.errors import ApiError
from agent_builder.console.schemas.agents import AgentConfig
from agent_builder.console.schemas.skills import (
    MAX_DESCRIPTION_CHARS,
    MAX_SKILL_BYTES,
    MAX_SKILL_FILES,
    SKILL_NAME_PATTERN,
    Skill,
    SkillFile,
)
from agent_builder.runtime.schemas import SkillSnapshot

SKILL_FILE_TYPES = (".md", ".txt", ".py", ".sh", ".js", ".json", ".yaml", ".yml", ".csv", ".html")
SKILL_MD = "SKILL.md"


def invalid(message: str) -> ApiError:
    return ApiError(400, "invalid_skill", message)


def unpack(uploads: list[tuple[str, bytes]]) -> dict[str, bytes]:
    """The skill's files by path from an upload: one .zip, or files named by their paths. A
    single top folder holding SKILL.md is the skill's folder (its name is left out of paths)."""
    if sum(len(data) for _, data in uploads) > MAX_SKILL_BYTES:
        raise ApiError(413, "file_too_large", f"A skill upload may hold at most {MAX_SKILL_BYTES >> 10} KiB.")
    if len(uploads) == 1 and uploads[0][0].lower().endswith(".zip"):
        files = _unzip(uploads[0][1])
    else:
        files = {}
        for raw, data in uploads:
            files[_clean_path(raw)] = data
    return _strip_top_folder(files)


def _unzip(data: bytes) -> dict[str, bytes]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        entries = [info for info in archive.infolist() if not info.is_dir()]
        if len(entries) > MAX_SKILL_FILES:
            raise _too_many()
        if sum(info.file_size for info in entries) > MAX_SKILL_BYTES:
            raise _too_big()
        files: dict[str, bytes] = {}
        for info in entries:
            if stat.S_ISLNK(info.external_attr >> 16):
                raise invalid(f"{info.filename} is a symbolic link: a skill holds files only.")
            files[_clean_path(info.filename)] = archive.read(info)[: MAX_SKILL_BYTES + 1]
        return files
    except (zipfile.BadZipFile, RuntimeError, NotImplementedError) as error:
        raise invalid(f"The zip file cannot be read ({error}).") from error


def _clean_path(raw: str) -> str:
    path = raw.replace("\\", "/").strip("/")
    parts = path.split("/")
    if not path or any(part in ("", ".", "..") or part.startswith("~") for part in parts):
        raise invalid(f"{raw!r} is not a path inside the skill's folder.")
    if any(char < " " or char == "\x7f" for char in path) or len(path) > 255:
        raise invalid(f"{raw!r} is not a path inside the skill's folder.")
    return path


def _strip_top_folder(files: dict[str, bytes]) -> dict[str, bytes]:
    tops = {path.split("/", 1)[0] for path in files}
    if len(tops) == 1 and all("/" in path for path in files):
        return {path.split("/", 1)[1]: data for path, data in files.items()}
    return files


def _too_many() -> ApiError:
    return ApiError(413, "too_many_files", f"A skill may hold at most {MAX_SKILL_FILES} files.")


def _too_big() -> ApiError:
    return ApiError(413, "file_too_large", f"A skill's files may hold at most {MAX_SKILL_BYTES >> 10} KiB.")


def check_files(files: dict[str, bytes]) -> tuple[str, str]:
    """The skill's name and description, once its files pass every rule (else 4xx, saying why)."""
    if len(files) > MAX_SKILL_FILES:
        raise _too_many()
    if sum(len(data) for data in files.values()) > MAX_SKILL_BYTES:
        raise _too_big()
    for path, data in files.items():
        if PurePosixPath(path).suffix.lower() not in SKILL_FILE_TYPES:
            raise ApiError(
                415, "unsupported_file_type", f"{path}: skill files may be {' '.join(SKILL_FILE_TYPES)}."
            )
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            raise invalid(f"{path} is not UTF-8 text.") from None
    if SKILL_MD not in files:
        raise invalid("The skill has no SKILL.md in its top folder.")
    return parse_front_matter(files[SKILL_MD].decode("utf-8"))


def parse_front_matter(text: str) -> tuple[str, str]:
    """SKILL.md's name and description, from the front matter between its first two --- lines."""
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or lines[0].strip() != "---":
        raise invalid("SKILL.md must start with front matter: a --- line, name and description, a --- line.")
    try:
        end = next(index for index, line in enumerate(lines[1:], 1) if line.strip() == "---")
    except StopIteration:
        raise invalid("SKILL.md's front matter has no closing --- line.") from None
    fields: dict[str, str] = {}
    for line in lines[1:end]:
        key, sep, value = line.partition(":")
        if line.strip() and not line.startswith((" ", "\t", "#")):
            if not sep:
                raise invalid(f"SKILL.md's front matter line {line.strip()!r} is not 'key: value'.")
            fields[key.strip()] = _unquote(value.strip())
    name, description = fields.get("name", ""), fields.get("description", "")
    if not name:
        raise invalid("SKILL.md's front matter has no name.")
    if not description:
        raise invalid("SKILL.md's front matter has no description.")
    if len(name) > 64 or not re.match(SKILL_NAME_PATTERN, name):
        raise invalid(f"The skill name {name!r} must be 1 to 64 lowercase letters, digits and hyphens.")
    if len(description) > MAX_DESCRIPTION_CHARS:
        raise invalid(f"The skill's description is longer than {MAX_DESCRIPTION_CHARS} characters.")
    return name, description


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def written(name: str, description: str, instructions: str) -> dict[str, bytes]:
    """A one-file skill: its SKILL.md with this front matter and body (the build assistant's)."""
    # The description is quoted so that one starting and ending with a quote reads back as written.
    text = f'---\nname: {name}\ndescription: "{description}"\n---\n\n{instructions.strip()}\n'
    return {SKILL_MD: text.encode("utf-8")}


def described(files: dict[str, bytes]) -> Skill:
    """The skill these files make, as a draft names it (checked; nothing stored)."""
    name, description = check_files(files)
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(f"{path}\0{len(files[path])}\0".encode())
        digest.update(files[path])
    listed = [SkillFile(path=path, size=len(files[path])) for path in sorted(files)]
    return Skill(name=name, description=description, archive_id=digest.hexdigest(), files=listed)


def store(conn: sqlite3.Connection, files: dict[str, bytes]) -> Skill:
    """The skill these (checked) files make, its archive stored unless it already was."""
    skill = described(files)
    archive_id = skill.archive_id
    conn.execute(
        "INSERT OR IGNORE INTO skill_archives (id, skill, files, created_at) VALUES (?, ?, ?, ?)",
        (
            archive_id,
            skill.model_dump_json(),
            json.dumps({path: data.decode("utf-8") for path, data in files.items()}),
            utc_now(),
        ),
    )
    return skill


def check_config(conn: sqlite3.Connection, config: AgentConfig) -> None:
    """Every skill a draft names is a stored archive, named and described as it was uploaded (a
    draft cannot make one up): 400 `invalid_skill` otherwise."""
    for skill in config.skills:
        row = conn.execute("SELECT skill FROM skill_archives WHERE id = ?", (skill.archive_id,)).fetchone()
        if row is None or Skill.model_validate_json(row["skill"]) != skill:
            raise invalid(f"The skill {skill.name!r} is not one uploaded to this console: upload it.")


def read_files(conn: sqlite3.Connection, archive_id: str) -> dict[str, str]:
    """The files of a stored archive, by path."""
    row = conn.execute("SELECT files FROM skill_archives WHERE id = ?", (archive_id,)).fetchone()
    files: dict[str, str] = {} if row is None else json.loads(row["files"])
    return files


def run_skills(db: Database, config: AgentConfig) -> list[SkillSnapshot]:
    """What a run gets of the agent's skills: each one's name, description and files."""
    with db.read() as conn:
        return [
            SkillSnapshot(
                name=skill.name, description=skill.description, files=read_files(conn, skill.archive_id)
            )
            for skill in config.skills
        ]
