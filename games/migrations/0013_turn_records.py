"""The players' records as they stand, counted once from the log onto their profiles: from now
on the listener of the turns that pass keeps them (games/play/records.py)."""
from django.db import migrations


def count(apps, schema_editor):
    from games.reads.reliability import turn_counts

    Profile = apps.get_model("accounts", "Profile")
    ActionLog = apps.get_model("games", "ActionLog")
    players = sorted(set(ActionLog.objects.filter(actor__isnull=False).values_list("actor_id", flat=True)))
    for start in range(0, len(players), 200):
        batch = players[start:start + 200]
        for user_id, (turns, in_time) in turn_counts(batch).items():
            Profile.objects.filter(user_id=user_id).update(turns_counted=turns, turns_in_time=in_time)


class Migration(migrations.Migration):
    dependencies = [("games", "0012_match_revision"), ("accounts", "0007_turn_records")]
    operations = [migrations.RunPython(count, migrations.RunPython.noop)]
