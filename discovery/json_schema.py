"""JSON Schema (draft 2020-12) for the DRF serializers that define the interface.

The MCP tools' input schemas are built from booking.api.validation (the very schemas that validate
every interface's input) and their output schemas from booking.api.schemas (the shapes the OpenAPI
document gives the REST bodies), so the three descriptions cannot drift apart.
"""

from rest_framework import fields as f
from rest_framework import serializers

from booking.api import validation


def input_schema(serializer_class: type[serializers.Serializer]) -> dict:
    """What a caller may send: required fields are those without a default."""
    return _object(serializer_class(), direction="input")


def output_schema(serializer_class: type[serializers.Serializer]) -> dict:
    """What the interface answers: every field the presenters always emit is required."""
    return _object(serializer_class(), direction="output")


def _object(serializer: serializers.Serializer, direction: str) -> dict:
    properties, required = {}, []
    for name, field in serializer.fields.items():
        properties[name] = field_schema(field, direction)
        # Output: the presenters emit every field, except the few declared required=False
        # (e.g. a reservation's `cancellation`, present only on a confirmed stay).
        if field.required:
            required.append(name)
    schema = {"type": "object", "properties": properties, **({"required": required} if required else {})}
    if direction == "input":
        schema["additionalProperties"] = False  # unknown arguments are refused (extra_forbidden)
    if help_text := getattr(serializer, "help_text", None):
        schema["description"] = str(help_text)
    return schema


def field_schema(field: f.Field, direction: str) -> dict:
    schema = _type_schema(field, direction)
    if field.allow_null:
        schema = _nullable(schema)
    if field.help_text:
        schema["description"] = str(field.help_text)
    # A default of null says nothing that leaving the field out of `required` does not.
    if direction == "input" and field.default not in (f.empty, None) and not callable(field.default):
        schema["default"] = field.default
    return schema


def _nullable(schema: dict) -> dict:
    if isinstance(schema.get("type"), str) and "properties" not in schema:
        return {**schema, "type": [schema["type"], "null"]}
    return {"anyOf": [schema, {"type": "null"}]}


def _type_schema(field: f.Field, direction: str) -> dict:
    if isinstance(getattr(field, "json_schema", None), dict):  # a field that states its own (validation.ExtraChoiceField)
        return dict(field.json_schema)
    if isinstance(field, serializers.ListSerializer):
        return {"type": "array", "items": _type_schema(field.child, direction)}
    if isinstance(field, serializers.Serializer):
        return _object(field, direction)
    if isinstance(field, f.ListField):
        return {"type": "array", "items": field_schema(field.child, direction)}
    if isinstance(field, f.DictField):
        return {"type": "object", "additionalProperties": field_schema(field.child, direction)}
    if isinstance(field, f.JSONField):
        return {}
    return _scalar_schema(field, direction)


def _scalar_schema(field: f.Field, direction: str) -> dict:  # noqa: PLR0911 (one branch per field kind)
    if isinstance(field, f.BooleanField):
        return {"type": "boolean"}
    if isinstance(field, f.IntegerField):
        return _bounded({"type": "integer"}, field.min_value, field.max_value)
    if isinstance(field, (f.FloatField, f.DecimalField)):
        return _bounded({"type": "number"}, field.min_value, field.max_value)
    if isinstance(field, f.DateTimeField):
        return {"type": "string", "format": "date-time"}
    if isinstance(field, f.DateField):
        return {"type": "string", "format": "date"}
    if isinstance(field, f.ChoiceField):
        return {"type": "string", "enum": list(field.choices)}
    if isinstance(field, f.CharField):
        return _string(field, direction)
    return {}


def _bounded(schema: dict, minimum, maximum) -> dict:
    if minimum is not None:
        schema["minimum"] = minimum
    if maximum is not None:
        schema["maximum"] = maximum
    return schema


def _string(field: f.CharField, direction: str) -> dict:
    schema = {"type": "string"}
    if isinstance(field, f.EmailField):
        schema["format"] = "email"
    elif isinstance(field, (f.URLField, validation.ReturnUrlField)):
        schema["format"] = "uri"
    if field.max_length is not None:
        schema["maxLength"] = field.max_length
    if field.min_length is not None:
        schema["minLength"] = field.min_length
    elif direction == "input" and not field.allow_blank:
        schema["minLength"] = 1  # DRF refuses "" unless allow_blank
    return schema
