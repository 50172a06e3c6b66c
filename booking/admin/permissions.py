"""Permissions named in the reader's language on the user and group screens.

Django stores a permission's name in English in the database ("Can add season") and shows that
text as it is; here it is composed when read from what the row means: the app's and the model's
translated names and the action of its codename ("add_season" → "Può aggiungere stagione"). A
permission of the project's own (`refund_reservation`, …) reads its name through the back office's
catalogue (msgid: the name of the model's Meta.permissions)."""

from django import forms
from django.contrib import admin
from django.contrib.auth.admin import GroupAdmin
from django.contrib.auth.models import Group, Permission
from django.utils.translation import gettext as _

ACTIONS = {
    "add": lambda model: _("Can add %(model)s") % {"model": model},
    "change": lambda model: _("Can change %(model)s") % {"model": model},
    "delete": lambda model: _("Can delete %(model)s") % {"model": model},
    "view": lambda model: _("Can view %(model)s") % {"model": model},
}


def permission_label(permission: Permission) -> str:
    model_class = permission.content_type.model_class()
    if model_class is None:  # a model no longer installed: its stored name is all there is
        return permission.name
    opts = model_class._meta
    action, _sep, model_name = permission.codename.partition("_")
    model = _(str(opts.verbose_name))  # a name set in Meta is plain English: its msgid is in the catalogue too
    what = ACTIONS[action](model) if action in ACTIONS and model_name == opts.model_name else _(permission.name)
    return f"{opts.app_config.verbose_name} | {model} | {what}"


class PermissionsField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj):
        return permission_label(obj)


class TranslatedPermissions:
    """Mixed into the user and group admins: their permission lists read in the back office's language."""

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        if db_field.name in ("permissions", "user_permissions"):
            kwargs["form_class"] = PermissionsField
        return super().formfield_for_manytomany(db_field, request, **kwargs)  # type: ignore[misc]


admin.site.unregister(Group)


@admin.register(Group)
class TranslatedGroupAdmin(TranslatedPermissions, GroupAdmin):
    pass
