"""docs/protocol.md shows exactly the schemas the server validates with."""

from pathlib import Path

from paiju.server.web.protocol import schemas_markdown


def test_protocol_doc_contains_the_current_schemas() -> None:
    doc = (Path(__file__).parent.parent / "docs" / "protocol.md").read_text()
    assert schemas_markdown() in doc, "regenerate the schema part: python -m paiju.server.web.protocol"
