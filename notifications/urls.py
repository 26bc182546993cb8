from django.urls import path

from notifications import views

urlpatterns = [
    path("inbox/", views.inbox, name="inbox"),
    path("inbox/read/", views.read, name="inbox_read"),
]
