from __future__ import annotations

import gc

import pytest

from keel_app.engine.environment import TemplateFiles


def test_a_dict_becomes_a_read_only_mapping() -> None:
    files = TemplateFiles({"a.yaml": "A"})
    assert dict(files) == {"a.yaml": "A"}
    assert files.files_id is None
    with pytest.raises(ValueError) as raised:
        files.files["b.yaml"] = "B"  # type: ignore[index]
    assert str(raised.value) == "Attempted to write to internal TemplateFiles cache"


def test_no_files_is_empty() -> None:
    files = TemplateFiles(None)
    assert (len(files), list(files), "a" in files) == (0, [], False)
    with pytest.raises(KeyError):
        files["a"]


def test_other_types_are_refused() -> None:
    with pytest.raises(ValueError) as raised:
        TemplateFiles(["a.yaml"])
    assert str(raised.value) == "Expected dict, got <class 'list'> for files, (value is ['a.yaml'])"


def test_setting_a_file_makes_a_new_unstored_map() -> None:
    files = TemplateFiles({"a.yaml": "A"})
    files.store(lambda content: 7)
    files["b.yaml"] = "B"
    assert dict(files) == {"a.yaml": "A", "b.yaml": "B"}
    assert files.files_id is None


def test_store_once_and_share_by_id() -> None:
    saved = []

    def save(content: object) -> int:
        saved.append(content)
        return 41

    files = TemplateFiles({"a.yaml": "A"})
    assert files.store(save) == 41
    assert files.store(save) == 41
    assert saved == [{"a.yaml": "A"}]
    assert dict(TemplateFiles(41)) == {"a.yaml": "A"}
    assert TemplateFiles(TemplateFiles(41)).files_id == 41


def test_empty_map_is_not_stored() -> None:
    assert TemplateFiles({}).store(lambda content: 1) is None


def test_stored_files_are_loaded_by_id_when_not_cached() -> None:
    loads = []

    def load(files_id: int) -> dict[str, str]:
        loads.append(files_id)
        return {"x.yaml": "X"}

    gc.collect()
    files = TemplateFiles(99, loader=load)
    assert files["x.yaml"] == "X"
    assert "x.yaml" in files
    assert loads == [99]


def test_update_with_nothing_keeps_the_stored_id() -> None:
    files = TemplateFiles({"a.yaml": "A"})
    files.store(lambda content: 5)
    files.update({})
    assert files.files_id == 5
