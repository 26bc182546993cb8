from celery import shared_task

from notifications import listeners, services


@shared_task
def sweep_notifications():
    """Every minute: reminders before deadlines, webhook retries, digests that are due."""
    return {"reminders": listeners.send_reminders(), "webhooks": services.retry_webhooks(),
            "digests": services.send_digests()}
