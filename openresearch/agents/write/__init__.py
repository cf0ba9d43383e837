"""Writing: the answer a report opens with, the section writers and the report renderers."""
