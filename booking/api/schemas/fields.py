"""How booking.api.validation's fields appear in the OpenAPI document: drf-spectacular extensions,
registered when this module is imported (booking/api/schemas/__init__.py does)."""

from drf_spectacular.extensions import OpenApiSerializerFieldExtension

# What booking.api.validation.ReturnUrlField accepts: an absolute https URL, or http on loopback, with no
# spaces, quotes or angle brackets (surrounding whitespace is trimmed). Said in the schema so that
# clients (and fuzzers) know it. No "format: uri": the API takes non-ASCII characters (IRIs), which
# that format refuses.
RETURN_URL_PATTERN = r"""^\s*(https://[^\s<>"'\x00/?#\[\]]+|http://(localhost|127\.0\.0\.1|\[::1\])(:[0-9]{1,5})?)([/?#][^\r\n\t <>"'\x00]*)?\s*$"""


class ReturnUrlFieldSchema(OpenApiSerializerFieldExtension):
    target_class = "booking.api.validation.ReturnUrlField"

    def map_serializer_field(self, auto_schema, direction):
        return {
            "type": "string",
            "pattern": RETURN_URL_PATTERN,
            "minLength": 1,
            "maxLength": 2000,
            "description": "Absolute https URL (http only for localhost) the payer returns to. Default: this site's page.",
        }


class NonBlankTextSchema(OpenApiSerializerFieldExtension):
    """booking.api.validation's text fields refuse "" (and only-whitespace text, which is trimmed to
    "") unless they allow blanks. drf-spectacular says so only under its ENFORCE_NON_BLANK_FIELDS
    setting, so it is said here."""

    target_class = "booking.api.validation.StrictCharField"

    def map_serializer_field(self, auto_schema, direction):
        if self.target.allow_blank:
            return {"type": "string"}
        return {"type": "string", "minLength": 1, "pattern": r"\S"}


class NullableGuestOutSchema(OpenApiSerializerFieldExtension):
    """A nullable nested object, inlined. drf-spectacular writes {allOf: [$ref], nullable: true},
    but in OpenAPI 3.0.3 `nullable` only widens a `type` in the same schema object, so that form
    refuses null (strict validators and generated clients read it so). Inlined, the object's
    `type` sits beside `nullable` and null is allowed, as the API answers it."""

    target_class = "booking.api.schemas.responses.GuestOut"

    def map_serializer_field(self, auto_schema, direction):
        return auto_schema._map_basic_serializer(self.target, direction)


class NullableGuestInfoSchema(NullableGuestOutSchema):
    target_class = "booking.api.validation.GuestInfo"
