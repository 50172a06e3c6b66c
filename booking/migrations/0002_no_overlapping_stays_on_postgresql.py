"""PostgreSQL backstop against double booking: active reservations of a property may not overlap.

The property lock in booking/services/holds.py is what serialises holds; this constraint makes an
overlap impossible even for code that bypasses the service. Stays are half-open ranges '[)', so a
check-out day can be the next check-in. SQLite has no exclusion constraints; there the lock (BEGIN
IMMEDIATE) is the guarantee.
"""

from django.db import migrations

CREATE = """
CREATE EXTENSION IF NOT EXISTS btree_gist;
ALTER TABLE booking_reservation ADD CONSTRAINT reservation_active_stays_do_not_overlap
    EXCLUDE USING gist (property_id WITH =, daterange(check_in, check_out, '[)') WITH &&)
    WHERE (status IN ('held', 'confirmed'));
"""
DROP = "ALTER TABLE booking_reservation DROP CONSTRAINT IF EXISTS reservation_active_stays_do_not_overlap;"


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("booking", "0001_initial")]
    operations = [migrations.RunPython(create, drop, elidable=False)]
