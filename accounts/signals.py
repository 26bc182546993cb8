"""Forget the API tokens' kept holders (ApiToken.holder) whenever the answer changes: a token
revoked or edited, its user or profile saved or deleted. Signals, not calls in the views,
because tokens and users also change in the admin, by cascade and in the shell; a queryset's
delete() sends post_delete for each token only because these receivers exist."""
from django.conf import settings
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.db.models.signals import post_delete, post_save, pre_save
from django.dispatch import receiver

from accounts.models import ApiToken, Profile, forget_tokens


@receiver(post_save, sender=ApiToken)
def token_saved(sender, instance, created, **kwargs):
    if not created:  # a new token has nothing kept yet
        forget_tokens(digests=[instance.digest])


@receiver(post_delete, sender=ApiToken)
def token_deleted(sender, instance, **kwargs):
    forget_tokens(digests=[instance.digest])


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def user_saved(sender, instance, created, **kwargs):
    # Deactivated, renamed, made staff or not: the next request reads the user again. (A user
    # deleted takes their tokens along, each sending its post_delete.)
    if not created:
        forget_tokens(user_id=instance.pk)


@receiver(post_save, sender=Profile)
@receiver(post_delete, sender=Profile)
def profile_changed(sender, instance, **kwargs):
    forget_tokens(user_id=instance.user_id)


# --- The sockets a session opened (games/live.py) ---------------------------------------

@receiver(user_logged_out)
def sockets_of_session_end(sender, request, user, **kwargs):
    session_key = getattr(getattr(request, "session", None), "session_key", None)
    if session_key:
        from games import live

        live.session_ended(session_key)


@receiver(pre_save, sender=settings.AUTH_USER_MODEL)
def sockets_of_old_password_end(sender, instance, update_fields=None, raw=False, **kwargs):
    """A new password ends the sessions made with the old one (Django's session hash): their
    sockets close too, once it is committed."""
    if raw or instance.pk is None or (update_fields is not None and "password" not in update_fields):
        return
    old = type(instance).objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    if old is not None and old != instance.password:
        from games import live

        user_id = instance.pk
        transaction.on_commit(lambda: live.credentials_changed(user_id))
