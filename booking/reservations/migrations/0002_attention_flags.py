"""Flags for staff become rows (AttentionFlag: a code and its parameters, several per stay) instead
of one English sentence in Reservation.needs_attention. Each stay's sentence becomes an open flag:
the code and parameters of the latest flag line of its history (ReservationEvent, action "flag")
whose note is that sentence, else the code "note" with the sentence as written (a staff member's
words, a flag older than the codes). Then the column goes."""

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


def sentences_to_flags(apps, schema_editor):
    Reservation = apps.get_model("reservations", "Reservation")
    ReservationEvent = apps.get_model("reservations", "ReservationEvent")
    AttentionFlag = apps.get_model("reservations", "AttentionFlag")
    for reservation in Reservation.objects.exclude(needs_attention="").only("pk", "needs_attention", "updated_at").iterator():
        sentence = reservation.needs_attention
        code, params, raised_at = "note", {"text": sentence}, reservation.updated_at
        lines = ReservationEvent.objects.filter(reservation_id=reservation.pk, action="flag").order_by("-at", "-id")
        for line in lines.only("message", "params", "note", "at"):
            if line.note[:300] == sentence:
                if line.message:
                    code, params = line.message, line.params
                raised_at = line.at
                break
        AttentionFlag.objects.create(reservation_id=reservation.pk, code=code, params=params, raised_at=raised_at)


def flags_to_sentences(apps, schema_editor):
    """Back: each stay's latest open flag as its English sentence (the history keeps the rest)."""
    Reservation = apps.get_model("reservations", "Reservation")
    AttentionFlag = apps.get_model("reservations", "AttentionFlag")
    ReservationEvent = apps.get_model("reservations", "ReservationEvent")
    for flag in AttentionFlag.objects.filter(resolved_at__isnull=True).order_by("raised_at", "id"):
        line = ReservationEvent.objects.filter(reservation_id=flag.reservation_id, action="flag", message=flag.code).order_by("-at", "-id").first()
        sentence = flag.params.get("text", "") if flag.code == "note" else (line.note if line else flag.code)
        Reservation.objects.filter(pk=flag.reservation_id).update(needs_attention=sentence[:300])


class Migration(migrations.Migration):
    dependencies = [
        ("reservations", "0001_initial"),
    ]

    operations = [
        migrations.CreateModel(
            name="AttentionFlag",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("code", models.CharField(max_length=50)),
                ("params", models.JSONField(blank=True, default=dict)),
                ("raised_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("resolved_at", models.DateTimeField(blank=True, null=True)),
                ("resolved_by", models.CharField(blank=True, max_length=150)),
                (
                    "reservation",
                    models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="attention_flags", to="reservations.reservation"),
                ),
            ],
            options={
                "ordering": ["raised_at", "id"],
                "constraints": [
                    models.UniqueConstraint(condition=models.Q(("resolved_at__isnull", True)), fields=("reservation", "code"), name="one_open_flag_per_code")
                ],
            },
        ),
        migrations.RunPython(sentences_to_flags, flags_to_sentences),
        migrations.RemoveField(
            model_name="reservation",
            name="needs_attention",
        ),
    ]
