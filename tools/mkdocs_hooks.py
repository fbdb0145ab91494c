"""mkdocs hooks (``hooks:`` in mkdocs.yml): the site's pages that live outside ``docs/``.

README.md, CONTRIBUTING.md and CHANGELOG.md stay at the repository's root, where people
and forges look for them; the site shows them as its home page, ``contributing.md`` and
``changelog.md``, their
links rewritten from the root's point of view (``docs/rules.md``) to the site's
(``rules.md``). Nothing is copied into ``docs/``: the files are generated in memory at
each build.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

#: The root's files shown by the site: source file -> page in the site.
PAGES = {
    "README.md": "index.md",
    "CONTRIBUTING.md": "contributing.md",
    "CHANGELOG.md": "changelog.md",
}


def site_text(text: str) -> str:
    """``text``, a Markdown file of the repository's root, with its links to ``docs/``
    and to the other root pages pointed at the site's pages.

    >>> site_text("[rules](docs/rules.md), [log](CHANGELOG.md), [x](docs/images/a.png)")
    '[rules](rules.md), [log](changelog.md), [x](images/a.png)'
    """
    text = re.sub(r"\]\(docs/", "](", text)
    for source, page in PAGES.items():
        text = text.replace(f"]({source}", f"]({page}")
    return text


def on_files(files: Files, config: Any, **kwargs: Any) -> Files:
    """Add the root's pages (:data:`PAGES`) to the site's files."""
    root = Path(config["config_file_path"]).parent
    for source, page in PAGES.items():
        text = (root / source).read_text(encoding="utf-8")
        files.append(File.generated(config, page, content=site_text(text)))
    return files


def docs_text(text: str) -> str:
    """``text``, a page of ``docs/``, with its links to the root's pages (``../CONTRIBUTING.md``,
    which a forge follows) pointed at the site's copies of them.

    >>> docs_text("[c](../CONTRIBUTING.md#compiled-modules), [r](rules.md)")
    '[c](contributing.md#compiled-modules), [r](rules.md)'
    """
    for source, page in PAGES.items():
        text = text.replace(f"](../{source}", f"]({page}")
    return text


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files, **kwargs: Any) -> str:
    """Point a docs page's links to the root's pages at the site's copies (see
    :func:`docs_text`); the root's own pages are rewritten by :func:`site_text`."""
    return docs_text(markdown)
