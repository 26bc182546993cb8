"""Forget the API tokens' kept holders (ApiToken.holder) whenever the answer changes: a token
revoked or edited, its user or profile saved or deleted. Signals, not calls in the views,
because tokens and users also change in the admin, by cascade and in the shell; a queryset's
delete() sends post_delete for each token only because these receivers exist."""
from django.conf import settings
from django.db.models.signals import post_delete, post_save
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
