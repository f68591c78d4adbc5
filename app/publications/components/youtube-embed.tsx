import { useEffect, useRef, useState } from "react";
import { youtubeVideoId } from "~/kernel/checks";
import { useLightMode } from "~/ui/light";

/**
 * A YouTube video in privacy mode that loads nothing from YouTube until asked: a thumbnail with a
 * play button; clicking it puts the youtube-nocookie player in its place. Without JavaScript the
 * thumbnail is a link to the video on YouTube.
 */
export function YouTubeEmbed({ url, title }: { url: string; title: string }) {
  const id = youtubeVideoId(url);
  const [playing, setPlaying] = useState(false);
  const frame = useRef<HTMLIFrameElement>(null);
  // Light mode (decision 049): the smallest thumbnail, and only ever the link.
  const light = useLightMode();
  useEffect(() => {
    if (playing) frame.current?.focus();
  }, [playing]);
  if (!id) return null;
  return (
    <div className="video">
      {playing ? (
        <iframe
          ref={frame}
          src={`https://www.youtube-nocookie.com/embed/${id}?autoplay=1`}
          title={`Video: ${title}`}
          allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
        />
      ) : (
        <a
          className="video-thumb"
          href={`https://www.youtube.com/watch?v=${id}`}
          onClick={(event) => {
            if (light) return;
            event.preventDefault();
            setPlaying(true);
          }}
        >
          <img
            src={`https://i.ytimg.com/vi/${id}/${light ? "mqdefault" : "hqdefault"}.jpg`}
            alt=""
            loading="lazy"
            width={light ? 320 : 480}
            height={light ? 180 : 360}
          />
          <span className="video-play" aria-hidden="true">
            ▶
          </span>
          <span className="visually-hidden">{`Reproducir video: ${title}`}</span>
        </a>
      )}
    </div>
  );
}
