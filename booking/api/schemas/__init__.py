"""What the OpenAPI document says about the API (drf-spectacular); the bodies themselves are built in
booking/api/presenters.py, and these only describe them.

- fields: how booking.api.validation's own fields appear in the schema (spectacular extensions);
- errors: the error bodies every endpoint answers with;
- responses: the shapes of the successful answers;
- examples: real answers of the demo property, shown beside the shapes.
"""

# Imported with the package, so the extensions are registered before any schema is generated.
from booking.api.schemas import fields  # noqa: F401
