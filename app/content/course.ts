// The Micromouse course page (/clase1, §2 "Micromouse course page"): every word, price, date,
// image and link. Edit them here; app/routes/landing/clase1.tsx only lays them out.
// Entries marked "placeholder" are waiting for the community's real ones.

interface Slide {
  title: string;
  text: string;
  /** A file under public/ or an https:// address. */
  image: string;
  imageAlt: string;
}

export const coursePage = {
  heading: "Curso Preparatorio Micromouse",
  intro:
    "Prepárate para Clash Robotics 2025: construye y programa un robot que resuelve laberintos.",
  carouselLabel: "Presentación del curso",
  // The carousel never moves by itself (§2): people move it with the buttons or the arrow keys.
  slides: [
    {
      title: "El Camino del Ratón",
      text: "Un robot pequeño, un laberinto y cuatro días para aprender a resolverlo.",
      image: "/landing/slide-maze.svg",
      imageAlt: "Dibujo de un laberinto visto desde arriba con un pequeño robot en la entrada",
    },
    {
      title: "Sensores y motores",
      text: "Aprende a leer las paredes con sensores y a mover el robot con precisión.",
      image: "/landing/slide-robot.svg",
      imageAlt: "Dibujo de un robot Micromouse con sus sensores y ruedas",
    },
    {
      title: "Algoritmos de laberinto",
      text: "Del seguidor de pared al algoritmo de inundación: programa cómo piensa tu robot.",
      image: "/landing/slide-algorithm.svg",
      imageAlt: "Dibujo de un laberinto con el camino más corto marcado",
    },
  ] satisfies Slide[],
  coursesTitle: "Cursos disponibles",
  selectedLabel: "Seleccionado",
  selectLabel: "Seleccionar",
};

export const course = {
  name: "El Camino del Ratón",
  price: "30bs",
  dates: "Del martes 4 al viernes 7 de noviembre",
  image: "/landing/course-micromouse.svg",
  summary: "Curso preparatorio para la categoría Micromouse de Clash Robotics 2025.",
  enrolLabel: "INSCRÍBETE",
  dialog: {
    title: "Inscríbete Ahora",
    description:
      "Completa el formulario de inscripción y únete al grupo del curso, donde compartimos los materiales, el horario y el lugar. El costo es de 30bs y se paga el primer día.",
    formLabel: "Formulario de Inscripción",
    // The course's registration form; null until there is one.
    formHref: null as string | null,
    groupLabel: "Grupo de WhatsApp del curso",
    // The invitation link of the course's group chat; null until there is one.
    groupHref: null as string | null,
    closeLabel: "Cerrar",
  },
};
