import { useEffect, useRef, useState } from "react";

/** §9: the background shader's defaults. */
const SHADER_DEFAULTS = { hueShift: 50, warp: 2.9, speed: 0.5, maxPixelRatio: 2 } as const;

const VERTEX = /* glsl */ `
attribute vec2 position;
void main() {
  gl_Position = vec4(position, 0.0, 1.0);
}`;

// Domain-warped waves in the site's blues and violets, hue-rotated by uHueShift degrees; kept dark
// so that text over it keeps its contrast.
const FRAGMENT = /* glsl */ `
precision highp float;
uniform float uTime;
uniform vec2 uResolution;
uniform float uHueShift;
uniform float uWarp;

vec3 hueShift(vec3 color, float degrees) {
  float angle = radians(degrees);
  mat3 toYiq = mat3(0.299, 0.596, 0.211, 0.587, -0.274, -0.523, 0.114, -0.322, 0.312);
  mat3 toRgb = mat3(1.0, 1.0, 1.0, 0.956, -0.272, -1.106, 0.621, -0.647, 1.703);
  vec3 yiq = toYiq * color;
  float hue = atan(yiq.z, yiq.y) + angle;
  float chroma = length(yiq.yz);
  return toRgb * vec3(yiq.x, chroma * cos(hue), chroma * sin(hue));
}

void main() {
  vec2 uv = (gl_FragCoord.xy - 0.5 * uResolution) / min(uResolution.x, uResolution.y);
  vec2 p = uv;
  for (int i = 1; i < 5; i++) {
    float fi = float(i);
    p += uWarp * 0.11 / fi * vec2(sin(fi * p.y * 2.1 + uTime * 0.7 + fi), cos(fi * p.x * 1.9 - uTime * 0.6 + fi * 1.3));
  }
  float waves = 0.5 + 0.5 * sin(p.x * 2.0 + p.y * 1.4 + uTime * 0.35);
  float rings = 0.5 + 0.5 * cos(length(p) * 3.0 - uTime * 0.45);
  // Magentas and violets: the default hue shift of 50 turns them into the site's blues and violets.
  vec3 color = mix(vec3(0.06, 0.02, 0.10), vec3(0.42, 0.08, 0.52), waves * 0.8);
  color = mix(color, vec3(0.55, 0.10, 0.30), rings * 0.45);
  color = hueShift(color, uHueShift);
  color *= 0.5 + 0.25 * smoothstep(1.3, 0.0, length(uv));
  gl_FragColor = vec4(clamp(color, 0.0, 1.0), 1.0);
}`;

const SOFTWARE_RENDERERS = /swiftshader|llvmpipe|softpipe|software|basic render driver/i;

/** Whether WebGL runs on the CPU (SwiftShader, llvmpipe…), where animating would cost too much. */
function isSoftwareRenderer(gl: WebGLRenderingContext | WebGL2RenderingContext): boolean {
  const generic = String(gl.getParameter(gl.RENDERER));
  const info = SOFTWARE_RENDERERS.test(generic)
    ? null
    : gl.getExtension("WEBGL_debug_renderer_info");
  const unmasked = info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : "";
  return SOFTWARE_RENDERERS.test(generic) || SOFTWARE_RENDERERS.test(unmasked);
}

type ShaderState = "pending" | "running" | "paused" | "static";

/**
 * The animated background (§9), on ogl. It starts only after the page is interactive and the
 * browser is idle (ogl is a separate chunk, not in the initial JavaScript), pauses while the tab
 * is hidden, and stays a still gradient without WebGL or under prefers-reduced-motion.
 * WebGL that the browser would only render in software (failIfMajorPerformanceCaveat, or a
 * software renderer such as SwiftShader: a phone without a usable GPU, a headless browser) counts
 * as none: there the animation would cost more
 * than it gives. data-shader says which: "pending", "running", "paused" or "static".
 */
export function ShaderBackground({
  hueShift = SHADER_DEFAULTS.hueShift,
  warp = SHADER_DEFAULTS.warp,
  speed = SHADER_DEFAULTS.speed,
}: {
  hueShift?: number;
  warp?: number;
  speed?: number;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<ShaderState>("pending");

  useEffect(() => {
    const container = ref.current;
    if (!container) return;
    const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
    if (reducedMotion.matches) {
      setState("static");
      return;
    }
    let cancelled = false;
    let stop: (() => void) | null = null;

    const start = async () => {
      if (cancelled) return;
      const canvas = document.createElement("canvas");
      const options: WebGLContextAttributes = {
        alpha: false,
        antialias: false,
        powerPreference: "low-power",
        failIfMajorPerformanceCaveat: true,
      };
      const gl2 = canvas.getContext("webgl2", options);
      const gl = gl2 ?? canvas.getContext("webgl", options);
      if (!gl || isSoftwareRenderer(gl)) {
        setState("static");
        return;
      }
      const { Renderer, Program, Mesh, Triangle } = await import("ogl");
      if (cancelled) return;
      const renderer = new Renderer({
        canvas,
        webgl: gl2 ? 2 : 1,
        alpha: false,
        antialias: false,
        powerPreference: "low-power",
        dpr: Math.min(window.devicePixelRatio || 1, SHADER_DEFAULTS.maxPixelRatio),
      });
      const program = new Program(renderer.gl, {
        vertex: VERTEX,
        fragment: FRAGMENT,
        uniforms: {
          uTime: { value: 0 },
          uResolution: { value: [1, 1] },
          uHueShift: { value: hueShift },
          uWarp: { value: warp },
        },
      });
      const mesh = new Mesh(renderer.gl, { geometry: new Triangle(renderer.gl), program });
      const resize = () => {
        renderer.setSize(window.innerWidth, window.innerHeight);
        program.uniforms.uResolution!.value = [renderer.gl.canvas.width, renderer.gl.canvas.height];
      };
      resize();
      container.appendChild(canvas);

      let frame = 0;
      let elapsed = 0;
      let last = performance.now();
      const render = (now: number) => {
        elapsed += ((now - last) / 1000) * speed;
        last = now;
        program.uniforms.uTime!.value = elapsed;
        renderer.render({ scene: mesh });
        frame = requestAnimationFrame(render);
      };
      const play = () => {
        if (frame) return;
        last = performance.now();
        frame = requestAnimationFrame(render);
        setState("running");
      };
      const pause = () => {
        if (frame) cancelAnimationFrame(frame);
        frame = 0;
        setState("paused");
      };
      const onVisibility = () => (document.hidden ? pause() : play());
      document.addEventListener("visibilitychange", onVisibility);
      window.addEventListener("resize", resize);
      if (document.hidden) pause();
      else play();

      stop = () => {
        pause();
        document.removeEventListener("visibilitychange", onVisibility);
        window.removeEventListener("resize", resize);
        canvas.remove();
        renderer.gl.getExtension("WEBGL_lose_context")?.loseContext();
      };
    };

    const onMotionChange = () => {
      if (!reducedMotion.matches) return;
      cancelled = true;
      stop?.();
      stop = null;
      setState("static");
    };
    reducedMotion.addEventListener("change", onMotionChange);

    const idle: (callback: () => void) => number =
      window.requestIdleCallback?.bind(window) ?? ((callback) => window.setTimeout(callback, 300));
    const cancelIdle: (handle: number) => void =
      window.cancelIdleCallback?.bind(window) ?? window.clearTimeout.bind(window);
    const handle = idle(() => void start());

    return () => {
      cancelled = true;
      cancelIdle(handle);
      reducedMotion.removeEventListener("change", onMotionChange);
      stop?.();
    };
  }, [hueShift, warp, speed]);

  return <div ref={ref} className="shader-background" data-shader={state} aria-hidden="true" />;
}
