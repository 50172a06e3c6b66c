"""The "Add a staff member" screen: an owner gives a person an account with the Owner or Staff role,
and the person is emailed a link to choose their password (services.staff_members). Offered to users
who may add users (auth.add_user, which the Owner role has); others get a 403.

The link opens Django's own password reset confirmation (`PasswordResetConfirmView`, wired in
config/urls.py under the back office's path, so it speaks the reader's back-office language), shown
in the back office's frame and ending on its sign-in page."""

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse, reverse_lazy
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from booking.admin.permissions import TranslatedPermissions
from booking.staff_members import ROLES, StaffMember, StaffMemberNotAdded, add_staff_member, email_taken


def may_add_staff_members(user) -> bool:
    return user.is_active and user.is_staff and user.has_perm("auth.add_user")


class StaffMemberForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=150)
    email = forms.EmailField(
        label=gettext_lazy("Email"), max_length=150, help_text=gettext_lazy("It is also their username. The link to choose a password is sent here.")
    )
    role = forms.ChoiceField(
        label=gettext_lazy("Role"),
        choices=[(role, gettext_lazy(role)) for role in ROLES],
        initial="Staff",
        widget=forms.RadioSelect,
        help_text=gettext_lazy("Owner: everything, including the property, rates and the accounts. Staff: reservations and blocked dates."),
    )
    language = forms.ChoiceField(label=gettext_lazy("Language of the email"), choices=lambda: settings.LANGUAGES)

    def clean_email(self):
        email = self.cleaned_data["email"]
        if email_taken(email):
            raise forms.ValidationError(_("There is already an account with this email address."))
        return email


def add_staff_member_view(model_admin, request):
    """GET: the form (the email's language set to the reader's). POST: the account and the
    email, then the Users list; a refusal comes back as form errors with the form still filled in."""
    if not may_add_staff_members(request.user):
        raise PermissionDenied
    form = StaffMemberForm(request.POST if request.method == "POST" else None, initial={"language": translation.get_language()})
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        member = StaffMember(name=data["name"], email=data["email"], role=data["role"], language=data["language"])
        try:
            user = add_staff_member(member=member, invited_by=request.user.get_full_name() or request.user.get_username())
        except StaffMemberNotAdded as error:
            if error.reason == StaffMemberNotAdded.EMAIL_TAKEN:
                form.add_error("email", _("There is already an account with this email address."))
            else:
                form.add_error(None, _("The roles are not set up yet: run make run (or manage.py setup_roles) once, then try again."))
        else:
            messages.success(
                request,
                _("%(name)s was added with the role %(role)s. The link to choose a password was emailed to %(email)s.")
                % {"name": user.get_full_name() or user.email, "role": _(data["role"]), "email": user.email},
            )
            return HttpResponseRedirect(reverse("admin:auth_user_changelist"))
    context = {**model_admin.admin_site.each_context(request), "title": _("Add a staff member"), "opts": model_admin.model._meta, "form": form}
    return TemplateResponse(request, "admin/auth/user/add_staff_member.html", context)


User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class StaffUserAdmin(TranslatedPermissions, UserAdmin):
    """Django's Users screens, with "Add a staff member" on the list for those who may add users."""

    def get_urls(self):
        return [path("add-staff-member/", self.admin_site.admin_view(self.add_staff_member), name="auth_user_add_staff_member"), *super().get_urls()]

    def add_staff_member(self, request):
        return add_staff_member_view(self, request)

    def changelist_view(self, request, extra_context=None):
        extra_context = {**(extra_context or {}), "can_add_staff_members": may_add_staff_members(request.user)}
        return super().changelist_view(request, extra_context)


# --- The link in the email: Django's password reset confirmation, in the back office's frame -------


class SetPasswordView(auth_views.PasswordResetConfirmView):
    template_name = "admin/auth/user/set_password.html"
    success_url = reverse_lazy("staff_password_set")

    def get_context_data(self, **kwargs):
        return {**admin.site.each_context(self.request), **super().get_context_data(**kwargs), "title": _("Choose your password")}


class PasswordSetView(auth_views.PasswordResetCompleteView):
    def get_context_data(self, **kwargs):
        context = {**admin.site.each_context(self.request), **super().get_context_data(**kwargs)}
        context["login_url"] = reverse("admin:login")  # not settings.LOGIN_URL: the back office's sign-in
        return context
