// A helper script the lab runs on the phone before the specs: opens the app and logs in.
// (Pushed to the server by the app-install spec; its content is the QA team's own.)
launch('com.example.chat');
tap(540, 1200);
