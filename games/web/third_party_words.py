"""Words the admin shows from django-celery-beat, which ships no Danish or Swedish catalogue.

Nothing imports this module: it exists so that `makemessages` puts these msgids, spelled exactly
as in django_celery_beat/models.py, apps.py and admin.py, into our catalogues. Our LOCALE_PATHS
catalogue takes precedence over the package's own, so the admin shows our translations (German
included, in the site's words). After upgrading the package, check the msgids still match.
"""
from django.utils.translation import gettext_noop

CELERY_BEAT = [
    # The app, as the admin index names it.
    gettext_noop("Periodic Tasks"),
    # The models.
    gettext_noop("solar event"), gettext_noop("solar events"),
    gettext_noop("interval"), gettext_noop("intervals"),
    gettext_noop("clocked"),
    gettext_noop("crontab"), gettext_noop("crontabs"),
    gettext_noop("periodic task track"), gettext_noop("periodic task tracks"),
    gettext_noop("periodic task"), gettext_noop("periodic tasks"),
    # The columns and filters of the periodic task and clocked schedule lists.
    gettext_noop("Name"), gettext_noop("Enabled"), gettext_noop("Interval Schedule"),
    gettext_noop("Start Datetime"), gettext_noop("Last Run Datetime"), gettext_noop("One-off Task"),
    gettext_noop("Clock Time"),
    # The actions of the periodic task list.
    gettext_noop("Enable selected tasks"), gettext_noop("Disable selected tasks"),
    gettext_noop("Toggle activity of selected tasks"), gettext_noop("Run selected tasks"),
]
