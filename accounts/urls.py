from django.contrib.auth import views as auth_views
from django.urls import path
from django.utils.translation import gettext_lazy as _

from accounts import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("profile/", views.profile, name="profile"),
    path("language/", views.language, name="language"),
    # vacation/ is the games' view (games/web/urls.py): the clocks it moves are theirs.
    path("tokens/", views.token_create, name="token_create"),
    path("tokens/<int:token_id>/delete/", views.token_delete, name="token_delete"),
    path("password/change/", views.PasswordChangeView.as_view(), name="password_change"),
    path("password/change/done/", auth_views.PasswordChangeDoneView.as_view(template_name="accounts/message.html",
         extra_context={"title": _("Password changed"), "text": _("Your password has been changed.")}),
         name="password_change_done"),
    path("password/reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path("password/reset/done/", auth_views.PasswordResetDoneView.as_view(template_name="accounts/message.html",
         extra_context={"title": _("Check your email"),
                        "text": _("If an account has that address, we sent a link to reset the password.")}),
         name="password_reset_done"),
    path("reset/<uidb64>/<token>/", views.PasswordResetConfirmView.as_view(), name="password_reset_confirm"),
    path("reset/done/", auth_views.PasswordResetCompleteView.as_view(template_name="accounts/message.html",
         extra_context={"title": _("Password reset"), "text": _("Your password has been set. You may log in now.")}),
         name="password_reset_complete"),
]
