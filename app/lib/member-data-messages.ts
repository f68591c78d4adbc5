// Messages of 'Descargar mis datos' and 'Eliminar mi cuenta' on /profile.
export const MEMBER_DATA_MESSAGES = {
  accountDeleteConfirm:
    "¿Estás seguro de que quieres eliminar tu cuenta? Se borrarán tu perfil, tus sesiones y tus participaciones. El contenido que publicaste se queda, con tu nombre. No se puede deshacer.",
  accountDeleteUnconfirmed: "Confirma que quieres eliminar tu cuenta.",
  accountDeleted: "Tu cuenta fue eliminada.",
  accountDeleteLastAdmin:
    "No puedes eliminar tu cuenta porque eres el último administrador. Nombra a otro administrador antes de eliminarla.",
  accountDeleteFailed: "Error al eliminar la cuenta. Por favor, inténtalo de nuevo.",
} as const;
