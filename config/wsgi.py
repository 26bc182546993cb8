"""The HTTP side of the site for a WSGI server (granian in production: see README). WebSockets
are Daphne's (config/asgi.py); a proxy sends /ws/ there and everything else here."""
import os

from django.core.wsgi import get_wsgi_application

from config.after_response import AfterResponse

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = AfterResponse(get_wsgi_application())
