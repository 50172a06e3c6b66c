"""Every model of this app moved to catalog, reservations, payments or outbox (their 0001
migrations): here Django forgets them, without SQL, and their content types (and so every
permission and every group's grant of it, and the admin's history) move to the new apps."""

from django.db import migrations

NEW_APP = {
    **dict.fromkeys(
        [
            "property",
            "cancellationtier",
            "amenity",
            "photo",
            "season",
            "nightrate",
            "arrivaldayminimum",
            "lengthofstaydiscount",
            "displaycurrency",
            "promocode",
            "extra",
        ],
        "catalog",
    ),
    **dict.fromkeys(["reservation", "reservationevent", "dateblock", "idempotencyrecord", "review"], "reservations"),
    **dict.fromkeys(
        ["paymentevent", "sandboxcheckout", "providerrefund", "payment", "balanceattempt", "securitydeposit", "guestcheckout", "receipt"], "payments"
    ),
    **dict.fromkeys(["outboundemail", "owneralert"], "outbox"),
}


def move_content_types(apps, schema_editor, *, forward=True):
    """The content type of each moved model takes its new app's label, so its permissions (and every
    group's and user's grant of them) and the admin's history stay attached. A content type the new
    app may already have (made by a `migrate` that ran post_migrate in between) gives way to the old
    one, which holds the grants."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    for model, label in NEW_APP.items():
        old_label, new_label = ("booking", label) if forward else (label, "booking")
        old = ContentType.objects.using(db).filter(app_label=old_label, model=model).first()
        if old is None:
            continue
        ContentType.objects.using(db).filter(app_label=new_label, model=model).delete()
        old.app_label = new_label
        old.save(using=db, update_fields=["app_label"])


def content_types_back(apps, schema_editor):
    move_content_types(apps, schema_editor, forward=False)


class Migration(migrations.Migration):
    dependencies = [
        ("booking", "0038_outboundemail_staff_invitation"),
        ("italy", "0002_reservations_moved_to_their_app"),
        ("pages", "0004_outbound_email_moved_to_its_app"),
        ("partner_sync", "0003_reservations_moved_to_their_app"),
        ("payments", "0001_initial"),
        ("outbox", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.RemoveField(
                    model_name="amenity",
                    name="property",
                ),
                migrations.RemoveField(
                    model_name="arrivaldayminimum",
                    name="property",
                ),
                migrations.RemoveField(
                    model_name="balanceattempt",
                    name="reservation",
                ),
                migrations.RemoveField(
                    model_name="cancellationtier",
                    name="property",
                ),
                migrations.RemoveField(
                    model_name="dateblock",
                    name="property",
                ),
                migrations.RemoveField(
                    model_name="displaycurrency",
                    name="property",
                ),
                migrations.RemoveField(
                    model_name="extra",
                    name="property",
                ),
                migrations.RemoveField(
                    model_name="guestcheckout",
                    name="reservation",
                ),
                migrations.DeleteModel(
                    name="IdempotencyRecord",
                ),
                migrations.RemoveField(
                    model_name="lengthofstaydiscount",
                    name="property",
                ),
                migrations.RemoveField(
                    model_name="nightrate",
                    name="property",
                ),
                migrations.RemoveField(
                    model_name="outboundemail",
                    name="reservation",
                ),
                migrations.DeleteModel(
                    name="OwnerAlert",
                ),
                migrations.RemoveField(
                    model_name="payment",
                    name="reservation",
                ),
                migrations.RemoveField(
                    model_name="receipt",
                    name="payment",
                ),
                migrations.RemoveField(
                    model_name="paymentevent",
                    name="reservation",
                ),
                migrations.RemoveField(
                    model_name="photo",
                    name="property",
                ),
                migrations.RemoveField(
                    model_name="promocode",
                    name="property",
                ),
                migrations.RemoveField(
                    model_name="reservation",
                    name="promo_code",
                ),
                migrations.RemoveField(
                    model_name="season",
                    name="property",
                ),
                migrations.RemoveField(
                    model_name="reservation",
                    name="property",
                ),
                migrations.RemoveField(
                    model_name="review",
                    name="property",
                ),
                migrations.RemoveField(
                    model_name="providerrefund",
                    name="reservation",
                ),
                migrations.RemoveField(
                    model_name="reservationevent",
                    name="reservation",
                ),
                migrations.RemoveField(
                    model_name="securitydeposit",
                    name="reservation",
                ),
                migrations.RemoveField(
                    model_name="sandboxcheckout",
                    name="reservation",
                ),
                migrations.RemoveField(
                    model_name="review",
                    name="reservation",
                ),
                migrations.DeleteModel(
                    name="Amenity",
                ),
                migrations.DeleteModel(
                    name="ArrivalDayMinimum",
                ),
                migrations.DeleteModel(
                    name="BalanceAttempt",
                ),
                migrations.DeleteModel(
                    name="CancellationTier",
                ),
                migrations.DeleteModel(
                    name="DateBlock",
                ),
                migrations.DeleteModel(
                    name="DisplayCurrency",
                ),
                migrations.DeleteModel(
                    name="Extra",
                ),
                migrations.DeleteModel(
                    name="GuestCheckout",
                ),
                migrations.DeleteModel(
                    name="LengthOfStayDiscount",
                ),
                migrations.DeleteModel(
                    name="NightRate",
                ),
                migrations.DeleteModel(
                    name="OutboundEmail",
                ),
                migrations.DeleteModel(
                    name="Payment",
                ),
                migrations.DeleteModel(
                    name="Receipt",
                ),
                migrations.DeleteModel(
                    name="PaymentEvent",
                ),
                migrations.DeleteModel(
                    name="Photo",
                ),
                migrations.DeleteModel(
                    name="PromoCode",
                ),
                migrations.DeleteModel(
                    name="Season",
                ),
                migrations.DeleteModel(
                    name="Property",
                ),
                migrations.DeleteModel(
                    name="ProviderRefund",
                ),
                migrations.DeleteModel(
                    name="ReservationEvent",
                ),
                migrations.DeleteModel(
                    name="SecurityDeposit",
                ),
                migrations.DeleteModel(
                    name="SandboxCheckout",
                ),
                migrations.DeleteModel(
                    name="Reservation",
                ),
                migrations.DeleteModel(
                    name="Review",
                ),
            ],
        ),
        migrations.RunPython(move_content_types, content_types_back),
    ]
