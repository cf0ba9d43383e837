"""The exception tree. Core code raises these; the CLI prints one line, the API maps them to HTTP codes.

OpenResearchError
├── ConfigError              bad settings or arguments
├── GraphError               anything from the graph layer
│   ├── GraphUnavailable     wrong URL, server down, cannot start the embedded server
│   │   └── GraphReadOnly    the server answers reads but refuses writes (its disk is full: MISCONF)
│   └── QueryError           a catalogue query failed or the catalogue is inconsistent
│       └── ConstraintViolation  a write broke a unique constraint (the statement wrote nothing)
├── InputError               malformed user input (an import line, a claims file)
├── NotFound                 an id that does not exist
├── FetchError               network fetches (ingest)
│   ├── FetchRefused         refused by policy (SSRF guard, scheme, robots, size)
│   └── ParseError           a page or PDF that cannot be parsed
├── LLMError                 an LLM endpoint failed or answered unusably
└── BudgetExceeded           a hard budget tripped
"""

from __future__ import annotations


class OpenResearchError(Exception):
    """Base of every error this package raises on purpose."""


class ConfigError(OpenResearchError):
    pass


class GraphError(OpenResearchError):
    pass


class GraphUnavailable(GraphError):
    pass


class GraphReadOnly(GraphUnavailable):
    """The graph answers reads but refuses every write (a full disk): read commands go on, writes stop."""


class QueryError(GraphError):
    pass


class ConstraintViolation(QueryError):
    pass


class InputError(OpenResearchError):
    pass


class NotFound(OpenResearchError):
    pass


class FetchError(OpenResearchError):
    pass


class FetchRefused(FetchError):
    pass


class ParseError(FetchError):
    pass


class NotADocument(ParseError):
    """A file a folder walk met that is not a document to read (a suffix-less script or build file): skipped
    quietly, unlike a document that fails to parse."""


class LLMError(OpenResearchError):
    pass


class BudgetExceeded(OpenResearchError):
    pass
