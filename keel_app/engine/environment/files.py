"""The ``files`` map of a stack: file name or URL -> content.

``get_file`` reads it, template resources find their templates in it, and
``environment_files`` are read from it. Once stored, a files map is an immutable
database row: the map keeps only its id and shares the content between every
template of the process that refers to that row. The engine reaches no database
itself; whoever stores or loads rows passes the functions that do it.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator, Mapping
from typing import Any

FilesLoader = Callable[[int], Mapping[str, Any]]
FilesSaver = Callable[[Mapping[str, Any]], int]


class ReadOnlyDict(dict[str, Any]):
    """Shared content: writing to it would change other templates' files."""

    def __setitem__(self, key: str, value: Any) -> None:
        raise ValueError("Attempted to write to internal TemplateFiles cache")


# Stored rows never change, so their content can be shared by id for as long as
# some template of the process still holds it.
_CACHE: weakref.WeakValueDictionary[int, ReadOnlyDict] = weakref.WeakValueDictionary()


def _not_a_dict(files: Any) -> ValueError:
    return ValueError(f"Expected dict, got {files.__class__} for files, (value is {files})")


class TemplateFiles(Mapping[str, Any]):
    """A files map given as a dict, another TemplateFiles, a stored row's id, or None."""

    def __init__(self, files: Any, loader: FilesLoader | None = None) -> None:
        self.files: ReadOnlyDict | None = None
        self.files_id: int | None = None
        self._loader = loader
        if files is None:
            return
        if isinstance(files, TemplateFiles):
            self.files_id = files.files_id
            self.files = files.files
            self._loader = loader or files._loader
            return
        if isinstance(files, int):
            self.files_id = files
            self.files = _CACHE.get(files)
            return
        if not isinstance(files, dict):
            raise _not_a_dict(files)
        # Not stored yet: no id until store() is called.
        self.files = ReadOnlyDict(files)

    def __getitem__(self, key: str) -> Any:
        self._refresh_if_needed()
        if self.files is None:
            raise KeyError(key)
        return self.files[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.update({key: value})

    def __len__(self) -> int:
        self._refresh_if_needed()
        return len(self.files) if self.files else 0

    def __contains__(self, key: object) -> bool:
        self._refresh_if_needed()
        return bool(self.files) and key in self.files  # type: ignore[operator]

    def __iter__(self) -> Iterator[str]:
        self._refresh_if_needed()
        return iter(self.files if self.files is not None else {})

    def _refresh_if_needed(self) -> None:
        if self.files_id is None:
            return
        cached = _CACHE.get(self.files_id)
        if cached is not None:
            self.files = cached
            return
        if self._loader is None:
            raise LookupError(f"no loader for the stored files {self.files_id}")
        content = ReadOnlyDict(self._loader(self.files_id))
        self.files = content
        _CACHE[self.files_id] = content

    def store(self, saver: FilesSaver) -> int | None:
        """Store the content once (``saver`` returns the new row's id); an empty map is
        not stored."""
        if not self.files or self.files_id is not None:
            return self.files_id
        self.files_id = saver(self.files)
        _CACHE[self.files_id] = self.files
        return self.files_id

    def update(self, files: Any) -> None:
        """Add or replace files. A stored row is never changed: the next store() makes a
        new one, so other processes caching the old row by id stay right."""
        if len(files) == 0:
            return
        if not isinstance(files, dict):
            raise _not_a_dict(files)
        self._refresh_if_needed()
        new_files = {**self.files, **files} if self.files else files
        self.files_id = None
        self.files = ReadOnlyDict(new_files)
