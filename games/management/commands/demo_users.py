from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from accounts.models import Profile

DEMO = [("admin", "admin-tradewinds", True, "Admiral"), ("anna", "anna-tradewinds", False, "Anna"),
        ("bo", "bo-tradewinds", False, "Bo")]


class Command(BaseCommand):
    help = "Create a demo admin and two demo players if they are absent, and print their logins."

    def handle(self, **options):
        User = get_user_model()
        for username, password, staff, name in DEMO:
            user = User.objects.filter(username=username).first()
            if user is None:
                user = User.objects.create_user(username, f"{username}@example.com", password,
                                                is_staff=staff, is_superuser=staff)
                Profile.objects.get_or_create(user=user, defaults={"display_name": name})
                self.stdout.write(f"  created {username:6} password {password}{'  (admin)' if staff else ''}")
            else:
                self.stdout.write(f"  {username:6} exists (demo password {password} unless changed)")
