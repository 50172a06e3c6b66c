"""Input schemas shared by every interface (REST, MCP, A2A, HTML): one set of rules, one message.

`validate(schema, data, location)` returns clean data or raises InvalidInput with the spec's
HTTPValidationError items: `loc` starting with "query", "body" or "path", a human `msg` and a
machine `type`.
"""

import copy
import functools
import json
import re
from datetime import date
from decimal import Decimal

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from booking.catalog.children_ages import MAX_CHILD_AGE, split_children_ages
from booking.catalog.selectors import today
from booking.errors import InvalidInput
from booking.text import NUL_MESSAGE, SURROGATE_MESSAGE, has_lone_surrogate, text_problem  # noqa: F401  (re-exported to the adapters)

MAX_TEXT = 2000
# A stay longer than this is absurd input, refused (422) before it is priced: schemathesis found
# that a stay ending in the year 8439 kept a worker busy for a minute pricing three million nights.
# Far above any stay the rules could allow, so DESIGN's "available: false" answers are unchanged.
MAX_PRICED_NIGHTS = 3660

# DRF error codes → the machine `type` of a validation item.
ERROR_TYPES = {
    "required": "missing",
    "null": "none_not_allowed",
    "invalid": "value_error",
    "max_value": "less_than_equal",
    "min_value": "greater_than_equal",
    "max_length": "string_too_long",
    "min_length": "string_too_short",
    "blank": "string_too_short",
    "not_a_list": "list_type",
    "invalid_choice": "enum",
    "date": "date_type",
    "datetime": "date_type",
    "max_string_length": "string_too_long",
}


ASCII_INTEGER = re.compile(r"^-?[0-9]+$")
ISO_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")


class Schema(serializers.Serializer):
    """A serializer whose fields are copied cheaply for each validation.

    DRF deep-copies every declared field for every serializer it builds, running each field's
    __init__ again; on the hot reads (availability, quote, calendar) that cost more than the
    validation itself. A declared field is never changed after its __init__, so a shallow copy per
    serializer, bound to it as DRF binds its copies, validates the same. A list's item field is
    copied too (it is bound to its list), and a nested schema is deep-copied as DRF does it."""

    def get_fields(self):
        fields = {}
        for name, declared in self._declared_fields.items():
            if isinstance(declared, serializers.BaseSerializer):
                fields[name] = copy.deepcopy(declared)
                continue
            field = copy.copy(declared)
            if isinstance(field, serializers.ListField):
                field.child = copy.copy(declared.child)  # type: ignore[attr-defined]
                field.child.parent = field  # type: ignore[assignment]  # bound once already (ListField.__init__): only the parent changes
            fields[name] = field  # type: ignore[assignment]
        return fields


class StrictIntegerField(serializers.IntegerField):
    """An integer. In a JSON body it must be a JSON integer ("3", 3.0 and true are wrong types);
    in a query string, plain ASCII digits ("2.0", "+3" and other scripts' digits are refused)."""

    def to_internal_value(self, data):
        if self.context.get("location") == "body":
            if isinstance(data, bool) or not isinstance(data, int):
                self.fail("invalid")
        elif not isinstance(data, int) or isinstance(data, bool):
            if not isinstance(data, str) or not ASCII_INTEGER.match(data.strip()):
                self.fail("invalid")
        return super().to_internal_value(data)


def unstorable_text(value: object, loc: list) -> list[dict]:
    """422 items for every string (object keys included) in a JSON value that holds a NUL or a lone
    surrogate: for the free-form parts of a request (UCP's booker, guests, context, ...), which no
    schema field checks one by one. Iterative, so any nesting the parser allowed is walked."""
    errors, pending = [], [(value, list(loc))]
    while pending:
        node, where = pending.pop()
        if isinstance(node, str):
            problem = text_problem(node)
            if problem:
                errors.append({"loc": where, "msg": problem, "type": "value_error"})
        elif isinstance(node, dict):
            for key, child in node.items():
                pending.append((key, where))
                pending.append((child, [*where, key if isinstance(key, str) and not text_problem(key) else "?"]))
        elif isinstance(node, list):
            pending.extend((child, [*where, index]) for index, child in enumerate(node))
    return sorted(errors, key=lambda item: [str(part) for part in item["loc"]])


class StrictCharField(serializers.CharField):
    """A string: numbers, booleans and objects are refused rather than turned into text."""

    default_error_messages = {"invalid": "Input should be a valid string."}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        problem = text_problem(data)
        if problem:
            raise serializers.ValidationError(problem, code="invalid")
        return super().to_internal_value(data)


class StayDateField(serializers.DateField):
    default_error_messages = {
        "invalid": "Input should be a valid date in the format YYYY-MM-DD.",
        "datetime": "Input should be a date (YYYY-MM-DD), not a date and time.",
    }

    def __init__(self, **kwargs):
        super().__init__(input_formats=["iso-8601"], **kwargs)

    def to_internal_value(self, value):
        if not isinstance(value, str) or not ISO_DATE.match(value):
            self.fail("invalid", format="YYYY-MM-DD")
        return super().to_internal_value(value)


class StaySchema(Schema):
    check_in = StayDateField(help_text="Arrival day, YYYY-MM-DD.")
    check_out = StayDateField(help_text="Departure day, YYYY-MM-DD (not a night).")

    def validate(self, attrs):
        check_in, check_out = attrs["check_in"], attrs["check_out"]
        if check_out <= check_in:
            raise InvalidStay(["check_out"], "check_out must be after check_in.", "date_order")
        if check_in < today():
            raise InvalidStay(["check_in"], "check_in must not be in the past.", "date_in_past")
        if (check_out - check_in).days > MAX_PRICED_NIGHTS:
            raise InvalidStay(["check_out"], f"A stay may last at most {MAX_PRICED_NIGHTS} nights.", "stay_too_long")
        return attrs


class InvalidStay(Exception):
    def __init__(self, loc, msg, type_):
        self.loc, self.msg, self.type = loc, msg, type_


# `guests` is the whole party: agents sending guests=2 with two children's ages met a bare 422.
GUESTS_HELP = "The whole party, children included, 1 to 7: 2 adults and 2 children is guests=4, children_ages=[5, 14]."
TOO_MANY_CHILDREN = (
    "guests counts the whole party, children included (2 adults and 2 children: guests=4, children_ages=[5, 14]), so at most guests − 1 children."
)


def guests_field(**kwargs):
    return StrictIntegerField(
        min_value=1,
        max_value=7,
        default=2,
        help_text=GUESTS_HELP,
        **kwargs,
    )


class ChildrenAgesField(serializers.ListField):
    """Ages of the children among the guests, 0 to 17: a JSON list, or "5,14" in a query string.
    Children under the property's exemption age pay no city tax."""

    def __init__(self, **kwargs):
        super().__init__(
            child=StrictIntegerField(min_value=0, max_value=MAX_CHILD_AGE),
            required=False,
            default=list,
            max_length=6,
            help_text="Ages of the children counted in guests (0 to 17), at most guests − 1 of them; e.g. [5, 14] (query: 5,14) with guests=4 for 2 adults. Children under the exemption age pay no city tax.",
            **kwargs,
        )

    def get_value(self, dictionary):
        # A query string gives the text "5,14"; a JSON body (and MCP, A2A) a list of integers.
        value = dictionary.get(self.field_name, serializers.empty)
        # What the OpenAPI pattern says: empty (no children), or ages joined by commas (spaces around
        # them allowed); any other part ("", "x") stays text, so it is a 422 at its index.
        if isinstance(value, str) and self.context.get("location") == "query":
            return split_children_ages(value)  # a part that is not a number stays text: a 422 at its index
        return super().get_value(dictionary)


PROMO_CODE_HELP = "A promo code the host gave the guest; one that does not apply is a 422 promo_code_invalid."


def promo_code_field():
    return StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=40, default=None, help_text=PROMO_CODE_HELP)


EXTRA_CHOICE_SCHEMA = {
    "type": "object",
    "properties": {
        "code": {"type": "string", "minLength": 1, "maxLength": 40},
        "quantity": {"type": "integer", "minimum": 0, "maximum": 99, "default": 1},
    },
    "required": ["code"],
    "additionalProperties": False,
}


@extend_schema_field(EXTRA_CHOICE_SCHEMA)
class ExtraChoiceField(serializers.Field):
    """One extra asked for: {"code": <an extra's code from get_property>, "quantity": 1} (quantity defaults to 1)."""

    json_schema = EXTRA_CHOICE_SCHEMA  # for the MCP tools' input schemas (discovery/json_schema.py)

    default_error_messages = {"invalid": "Each extra is an object with a code and a quantity."}

    def to_internal_value(self, data):
        if not isinstance(data, dict):
            self.fail("invalid")
        errors = {
            name: [serializers.ErrorDetail(f"Unknown field {name!r}; an extra has code and quantity.", "extra_forbidden")]
            for name in data
            if name not in ("code", "quantity")
        }
        code, quantity = data.get("code"), data.get("quantity", 1)
        if not isinstance(code, str) or not 0 < len(code) <= 40:
            errors["code"] = [serializers.ErrorDetail("The extra's code, a string of 1 to 40 characters.", "string_type")]
        if isinstance(quantity, bool) or not isinstance(quantity, int) or not 0 <= quantity <= 99:
            errors["quantity"] = [serializers.ErrorDetail("A whole number from 0 to 99.", "int_type")]
        if errors:
            raise serializers.ValidationError(errors)
        return {"code": code, "quantity": quantity}


class ExtrasField(serializers.ListField):
    def __init__(self, **kwargs):
        super().__init__(
            child=ExtraChoiceField(),
            required=False,
            default=list,
            max_length=20,
            help_text='Extras with the stay (codes and maxima in get_property), e.g. [{"code": "<code>", "quantity": 1}].',
            **kwargs,
        )

    def to_internal_value(self, data):
        chosen = super().to_internal_value(data)
        codes = [choice["code"] for choice in chosen]
        for index, code in enumerate(codes):
            if code in codes[:index]:
                raise serializers.ValidationError({index: {"code": [serializers.ErrorDetail(f"{code} is listed twice.", "extra_invalid")]}})  # type: ignore[dict-item]
        return chosen


class PartySchema(StaySchema):
    guests = guests_field()
    children_ages = ChildrenAgesField()

    def validate(self, attrs):
        attrs = super().validate(attrs)
        if len(attrs.get("children_ages") or []) > attrs.get("guests", 2) - 1:
            raise InvalidStay(["children_ages"], TOO_MANY_CHILDREN, "too_many_children")
        return attrs


class AvailabilityQuery(PartySchema):
    promo_code = promo_code_field()


class QuoteRequest(PartySchema):
    currency = StrictCharField(default="EUR", max_length=3, min_length=3, help_text="Display currency, e.g. EUR (charged) or one the owner enabled.")
    promo_code = promo_code_field()
    extras = ExtrasField()


class GuestInfo(Schema):
    first_name = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=100)
    last_name = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=100)
    email = serializers.EmailField(required=False, allow_null=True, allow_blank=True, max_length=254)
    phone = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=40)


class ReservationCreate(PartySchema):
    promo_code = promo_code_field()
    extras = ExtrasField()
    guest = GuestInfo(required=False, allow_null=True, default=None)
    special_requests = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=MAX_TEXT, default=None)
    agent_name = StrictCharField(
        required=False, allow_null=True, allow_blank=True, max_length=100, default=None, help_text="Name of the calling AI agent, if any."
    )


# scheme://authority[path][?query][#fragment], read as a browser's URL parser (WHATWG) would, but
# refusing everything where a browser and Python could disagree about the host: backslashes (a
# browser reads them as "/"), userinfo ("a@b": the host is b), control characters and whitespace
# (a browser strips tabs and newlines anywhere), percent-encoded hosts, and non-ASCII (IDN hosts
# must be given in their xn-- form, other characters percent-encoded).
_RETURN_URL = re.compile(r"(?P<scheme>https?)://(?P<authority>[^/?#]*)(?P<rest>[/?#].*)?", re.IGNORECASE | re.DOTALL)
_HOST_LABEL = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)")
_LOCAL_HOSTS = {"localhost", "127.0.0.1", "[::1]"}
RETURN_URL_RULE = "Must be an absolute https URL (http is allowed only for localhost)"


def return_url_problem(value: str) -> str | None:
    """Why `value` is not a safe place to send a payer back to, or None when it is."""
    if any(not 0x21 <= ord(c) <= 0x7E for c in value) or any(c in value for c in "\\\"'<>`"):
        return "Must be a plain URL: no spaces, control characters, backslashes, quotes or non-ASCII characters (give international host names in their xn-- form)."
    match = _RETURN_URL.fullmatch(value)
    if match is None:
        return RETURN_URL_RULE + "."
    scheme, authority = match["scheme"].lower(), match["authority"].lower()
    if "@" in authority:
        return "Must not contain a user name or password before the host."
    split = _host_and_port(authority)
    if split is None:
        return RETURN_URL_RULE + "."
    host, port = split
    if port and not (port.isdigit() and 0 < int(port) < 65536):
        return "The port must be a number from 1 to 65535."
    if not _valid_host(host):
        return "The host must be a plain host name or IP address."
    if scheme == "http" and host not in _LOCAL_HOSTS:
        return RETURN_URL_RULE + "."
    # The same host as Python's parser finds, or the two readings disagree somewhere.
    from urllib.parse import urlsplit

    try:
        parsed = urlsplit(value)
        parsed_host = parsed.hostname or ""
    except ValueError:
        return RETURN_URL_RULE + "."
    if parsed_host != host.strip("[]") or parsed.username is not None:
        return RETURN_URL_RULE + "."
    return None


def _host_and_port(authority: str) -> tuple[str, str] | None:
    """(host, port) of a URL's authority; an IPv6 host keeps its brackets. None if malformed."""
    if not authority.startswith("["):
        host, _, port = authority.partition(":")
        return host, port
    if "]" not in authority:
        return authority, ""
    host, _, rest = authority.partition("]")
    if rest and not rest.startswith(":"):
        return None
    return host + "]", rest[1:]


def _valid_host(host: str) -> bool:
    if host == "[::1]":
        return True
    if host.startswith("["):
        import ipaddress

        try:
            ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            return False
        return True
    labels = host.split(".")
    return len(host) <= 253 and all(_HOST_LABEL.fullmatch(label) for label in labels)


class ReturnUrlField(StrictCharField):
    """An absolute https URL (http only for localhost) the payment page returns the payer to,
    checked the way browsers parse URLs (see return_url_problem).

    International host names are accepted in their ASCII (xn--) form only: "https://bücher.example/"
    is refused with a message saying so. Accepting Unicode would mean reproducing a browser's IDNA
    mapping exactly (it folds full-width letters and ideographic full stops into ASCII, so the host
    checked and the host visited could differ); the xn-- form is the host a browser visits."""

    def __init__(self, **kwargs):
        super().__init__(required=False, allow_null=True, default=None, max_length=2000, **kwargs)

    def to_internal_value(self, data):
        # Judged exactly as sent, before the trimming every CharField does, so that " https://…"
        # and a NUL are refused like any other space or control character, with this field's code.
        if isinstance(data, str) and (problem := return_url_problem(data)):
            raise serializers.ValidationError(problem, code="url")
        return super().to_internal_value(data)


class CheckoutLinkCreate(PartySchema):
    promo_code = promo_code_field()
    extras = ExtrasField()
    success_url = ReturnUrlField()
    cancel_url = ReturnUrlField()
    special_requests = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=MAX_TEXT, default=None)
    agent_name = StrictCharField(required=False, allow_null=True, allow_blank=True, max_length=100, default=None)


class CheckoutSessionCreate(Schema):
    reservation_id = StrictCharField(max_length=200)
    success_url = ReturnUrlField()
    cancel_url = ReturnUrlField()


class StaysQuery(Schema):
    nights = StrictIntegerField(min_value=1, max_value=365, help_text="Exactly this many nights, 1 to 365.")
    guests = guests_field()
    children_ages = ChildrenAgesField()
    promo_code = promo_code_field()
    start = StayDateField(required=False, allow_null=True, default=None, help_text="Earliest arrival, YYYY-MM-DD. Default: today (the first bookable date).")
    end = StayDateField(
        required=False, allow_null=True, default=None, help_text="Latest arrival, YYYY-MM-DD. Default: start + 60 days; at most 18 months after start."
    )

    MAX_WINDOW_DAYS = 549  # 18 months

    def validate(self, attrs):
        start, end = attrs.get("start"), attrs.get("end")
        if len(attrs.get("children_ages") or []) > attrs.get("guests", 2) - 1:
            raise InvalidStay(["children_ages"], TOO_MANY_CHILDREN, "too_many_children")
        if start is not None and start < today():
            raise InvalidStay(["start"], "start must not be in the past.", "date_in_past")
        if end is not None:
            if end < (start or today()):
                raise InvalidStay(["end"], "end must not be before start.", "date_order")
            if (end - (start or today())).days > self.MAX_WINDOW_DAYS:
                raise InvalidStay(["end"], "end may be at most 18 months after start.", "window_too_long")
        return attrs


class CalendarQuery(Schema):
    start = StayDateField(required=False, allow_null=True, default=None, help_text="Month anchor, YYYY-MM-DD; any date, past or future. Default: this month.")
    months = StrictIntegerField(min_value=1, max_value=18, default=12, help_text="How many months, 1 to 18.")

    # The calendar reads a little before the anchor and well after its last month; keep both ends
    # inside the dates Python can represent (years 1 to 9999).
    EARLIEST, LATEST = date(2, 1, 1), date(9997, 12, 31)

    def validate(self, attrs):
        start = attrs.get("start")
        if start is not None and not self.EARLIEST <= start <= self.LATEST:
            raise InvalidStay(["start"], f"start must be between {self.EARLIEST} and {self.LATEST}.", "date_out_of_range")
        return attrs


class ReservationPath(Schema):
    reservation_id = StrictCharField(max_length=200)


class StrictBooleanField(serializers.BooleanField):
    """true or false: "yes", 1 and "true" are wrong types (a cancel must never follow from a guess)."""

    default_error_messages = {"invalid": "Input should be a valid boolean (true or false)."}

    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


MANAGE_TOKEN_HELP = "The guest's manage token: the last part of the booking link in the confirmation email ({BASE_URL}/manage/<token>)."


class BookingPath(Schema):
    manage_token = StrictCharField(max_length=200, help_text=MANAGE_TOKEN_HELP)


class BookingCancel(Schema):
    confirm = StrictBooleanField(help_text="false: answer the refund cancelling now would give, and change nothing; true: cancel by the policy.")


class BookingChangeDates(StaySchema):
    confirm = StrictBooleanField(help_text="false: answer the new price and what it means for the money, and change nothing; true: make the change.")
    expected_total = serializers.DecimalField(
        max_digits=12,
        decimal_places=2,
        min_value=Decimal("0"),
        max_value=Decimal("9999999999.99"),
        required=False,
        allow_null=True,
        default=None,
        help_text="Optional, with confirm: the total the guest was shown; a price that moved since is refused (409 price_changed).",
    )


# MCP and A2A take the token beside the body's fields.
class BookingCancelArguments(BookingPath, BookingCancel):
    pass


class BookingChangeDatesArguments(BookingPath, BookingChangeDates):
    pass


class BlogSlugPath(Schema):
    slug = serializers.RegexField(r"^[-a-zA-Z0-9_]+$", max_length=200, error_messages={"invalid": "A slug has only letters, digits, hyphens and underscores."})


def validate(schema: type[serializers.Serializer], data, location: str, *, forbid_extra: bool | None = None) -> dict:
    """Validate `data` against `schema`; raise InvalidInput with loc prefixed by `location`.

    Unknown fields are refused (422 `extra_forbidden`) in JSON bodies and, through
    `forbid_extra=True`, in MCP and A2A arguments: `{"adults": 6}` silently priced as 2 guests is
    the failure this prevents. REST query strings stay lenient (links carry tracking parameters).
    """
    if location == "body" and not isinstance(data, dict):
        raise InvalidInput.single(["body"], "Input should be a JSON object.", "model_attributes_type")
    serializer = schema(data=data, context={"location": location})
    if forbid_extra if forbid_extra is not None else location == "body":
        # The same serializer's fields: building a schema's fields costs more than validating.
        extra = unknown_fields(serializer, data, [location])
        if extra:
            raise InvalidInput.located(extra)
    try:
        valid = serializer.is_valid()
    except InvalidStay as error:
        raise InvalidInput.single([location, *error.loc], error.msg, error.type) from None
    if not valid:
        raise InvalidInput.located(flatten_errors(serializer.errors, [location]) + _stay_errors_beside(schema, data, location, serializer.errors))
    return dict(serializer.validated_data)


def _stay_errors_beside(schema: type[serializers.Serializer], data, location: str, field_errors) -> list[dict]:
    """The stay's own checks (date order, past, length), which DRF runs only once every field is
    valid, when another field failed: `guests: 9` with inverted dates reports both at once."""
    if not issubclass(schema, StaySchema) or not isinstance(data, dict) or {"check_in", "check_out"} & set(field_errors):
        return []
    try:
        validate(StaySchema, {name: data.get(name) for name in ("check_in", "check_out")}, location, forbid_extra=False)
    except InvalidInput as error:
        return error.errors
    return []


def validate_remembered(schema: type[serializers.Serializer], data, location: str) -> dict:
    """validate() for the inputs agents send over and over (the hot reads' queries and quote
    bodies): a valid input's clean data depends only on the input and today's date, so each
    process keeps the last few hundred. An invalid input is validated afresh every time (its
    errors are raised, never kept)."""
    try:
        frozen = json.dumps(data, sort_keys=True)
    except (TypeError, ValueError):
        return validate(schema, data, location)
    return dict(_validated(schema, location, today(), frozen))


@functools.lru_cache(maxsize=512)
def _validated(schema: type[serializers.Serializer], location: str, day: date, frozen: str) -> dict:
    return validate(schema, json.loads(frozen), location)


def forget_validated() -> None:
    _validated.cache_clear()


def unknown_fields(serializer: serializers.Serializer, data, loc: list) -> list[dict]:
    """One extra_forbidden error per field the schema does not have (nested objects included)."""
    if not isinstance(data, dict):
        return []
    fields = serializer.fields
    accepted = ", ".join(fields)
    errors = [
        {"loc": [*loc, name], "msg": f"Unknown field {name!r}; the accepted fields are: {accepted}.", "type": "extra_forbidden"}
        for name in data
        if name not in fields
    ]
    for name, field in fields.items():
        if isinstance(field, serializers.Serializer) and isinstance(data.get(name), dict):
            errors += unknown_fields(field, data[name], [*loc, name])
    return errors


def flatten_errors(errors, prefix: list) -> list[dict]:
    items = []
    if isinstance(errors, dict):
        for name, value in errors.items():
            loc = prefix if name == "non_field_errors" else [*prefix, name]
            items += flatten_errors(value, loc)
    elif isinstance(errors, list):
        for index, value in enumerate(errors):
            if isinstance(value, (dict, list)):
                items += flatten_errors(value, [*prefix, index])
            else:
                items.append(error_item(prefix, value))
    else:
        items.append(error_item(prefix, errors))
    return items


def error_item(loc: list, error) -> dict:
    code = getattr(error, "code", None) or "value_error"
    msg = str(error)
    if code == "required":
        msg = "Field required."
    return {"loc": list(loc), "msg": msg, "type": ERROR_TYPES.get(code, code)}
